// Re-centring of split free variables on vectors of four entries per texel (see recenter.frag):
// S1 holds each entry's partner index or -1; the partner's value is read from its own texel.
uniform sampler2DRect S0; // x
uniform sampler2DRect S1; // partner index
uniform float cap;
out vec4 result;

void main() {
    ivec2 g = ivec2(gl_FragCoord.xy);
    vec4 own = texelFetch(S0, g);
    vec4 partner = texelFetch(S1, g);
    for (int c = 0; c < 4; ++c) {
        float r = own[c];
        if (partner[c] >= 0.0) {
            int p = int(partner[c]);
            float other = texelFetch(S0, ivec2(p / 4, 0))[p % 4];
            float excess = min(r, other) - cap * (1.0 + abs(r - other));
            r = excess > 0.0 ? r - excess : r;
        }
        result[c] = r;
    }
}
