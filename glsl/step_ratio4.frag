// Line search on vectors of four entries per texel: -x/dx where dx < 0, +inf elsewhere and in
// the padding (the identity of the min reduction that follows); NaN in, NaN out.
uniform sampler2DRect S0; // x
uniform sampler2DRect S1; // dx
uniform float len;
out vec4 result;

// texture() at the texel's centre: on llvmpipe cheaper than texelFetch (about 2x measured).
vec4 at(sampler2DRect s, ivec2 p) {
    return texture(s, vec2(p) + 0.5);
}

void main() {
    ivec2 g = ivec2(gl_FragCoord.xy);
    vec4 x = at(S0, g);
    vec4 dx = at(S1, g);
    const float INF = uintBitsToFloat(0x7f800000u);
    for (int c = 0; c < 4; ++c) {
        if (float(4 * g.x + c) >= len) {
            result[c] = INF;
        } else if (isnan(x[c]) || isnan(dx[c])) {
            result[c] = uintBitsToFloat(0x7fc00000u);
        } else {
            result[c] = dx[c] < 0.0 ? -x[c] / dx[c] : INF;
        }
    }
}
