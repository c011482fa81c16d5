// Re-centring of split free variables on vectors of four entries per texel (see recenter.frag):
// S1 holds each entry's partner index or -1; the partner's value is read from its own texel.
uniform sampler2DRect S0; // x
uniform sampler2DRect S1; // partner index
uniform float cap;
out vec4 result;

// texture() at the texel's centre: on llvmpipe cheaper than texelFetch (about 2x measured).
vec4 at(sampler2DRect s, ivec2 p) {
    return texture(s, vec2(p) + 0.5);
}

void main() {
    ivec2 g = ivec2(gl_FragCoord.xy);
    vec4 own = at(S0, g);
    vec4 partner = at(S1, g);
    for (int c = 0; c < 4; ++c) {
        float r = own[c];
        if (partner[c] >= 0.0) {
            int p = int(partner[c]);
            float other = at(S0, ivec2(p / 4, 0))[p % 4];
            float excess = min(r, other) - cap * (1.0 + abs(r - other));
            r = excess > 0.0 ? r - excess : r;
        }
        result[c] = r;
    }
}
