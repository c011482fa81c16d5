// Blocked forward substitution (the mixed-precision paper, Figs. 4-5): r <- r - L(rows, c) * y_c,
// where y_c is the block of the solution the CPU has just computed. The vector holds two entries
// per texel: texel (0, I) = (r(2I), r(2I+1), 0, 0); L is in 2x2 blocks.
#ifndef NB
#define NB 32
#endif
uniform samplerRECT S0; // r before this pass
uniform samplerRECT S1; // L, 2x2 blocks
uniform samplerRECT S2; // y_c: texel (t, 0) = (y(2(c0 + t)), y(2(c0 + t) + 1), 0, 0)
uniform float c0;         // the block's first block column
out vec4 result;

void main() {
    vec2 own = gl_FragCoord.xy;
    vec2 acc = vec2(0.0);
    for (int t = 0; t < NB / 2; ++t) {
        vec4 l = texRECT(S1, vec2(c0 + float(t) + 0.5, own.y));
        vec2 y = texRECT(S2, vec2(float(t) + 0.5, 0.5)).xy;
        acc += l.xz * y.x + l.yw * y.y;
    }
    result = vec4(texRECT(S0, own).xy - acc, 0.0, 0.0);
}
