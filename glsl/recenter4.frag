// Re-centring of split free variables on vectors of four entries per texel (see recenter.frag):
// S1 holds each entry's partner index or -1; the partner's value is read from its own texel.
uniform samplerRECT S0; // x
uniform samplerRECT S1; // partner index
uniform float cap;
out vec4 result;

void main() {
    ivec2 g = ivec2(gl_FragCoord.xy);
    vec4 own = texelAt(S0, g);
    vec4 partner = texelAt(S1, g);
    // Written whole after the loop: WebGL (ANGLE) accepts only constant indices into an output.
    vec4 out4;
    for (int c = 0; c < 4; ++c) {
        float r = own[c];
        if (partner[c] >= 0.0) {
            int p = int(partner[c]);
            float other = texelAt(S0, ivec2(p / 4, 0))[p % 4];
            float excess = min(r, other) - cap * (1.0 + abs(r - other));
            r = excess > 0.0 ? r - excess : r;
        }
        out4[c] = r;
    }
    result = out4;
}
