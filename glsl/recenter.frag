// Re-centres split free variables x = x+ - x-: for a pair (p, q) whose smaller part exceeds
// cap * (1 + |x_p - x_q|), both parts drop by the excess (x and A x unchanged). S1 holds each
// entry's partner index (or -1). Both members compute the same excess.
uniform samplerRECT S0; // x
uniform samplerRECT S1; // partner index
uniform float cap;
out float result;

void main() {
    float own = texRECT(S0, gl_FragCoord.xy).r;
    float partner = texRECT(S1, gl_FragCoord.xy).r;
    if (partner < 0.0) {
        result = own;
        return;
    }
    float other = texRECT(S0, vec2(partner + 0.5, 0.5)).r;
    float excess = min(own, other) - cap * (1.0 + abs(own - other));
    result = excess > 0.0 ? own - excess : own;
}
