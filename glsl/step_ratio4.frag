// Line search on vectors of four entries per texel: -x/dx where dx < 0, +inf elsewhere and in
// the padding (the identity of the min reduction that follows); NaN in, NaN out.
uniform samplerRECT S0; // x
uniform samplerRECT S1; // dx
uniform float len;
out vec4 result;

void main() {
    ivec2 g = ivec2(gl_FragCoord.xy);
    vec4 x = texelAt(S0, g);
    vec4 dx = texelAt(S1, g);
    const float INF = uintBitsToFloat(0x7f800000u);
    // Written whole after the loop: WebGL (ANGLE) accepts only constant indices into an output.
    vec4 out4;
    for (int c = 0; c < 4; ++c) {
        if (float(4 * g.x + c) >= len) {
            out4[c] = INF;
        } else if (isnan(x[c]) || isnan(dx[c])) {
            out4[c] = uintBitsToFloat(0x7fc00000u);
        } else {
            out4[c] = dx[c] < 0.0 ? -x[c] / dx[c] : INF;
        }
    }
    result = out4;
}
