// Blocked assembly of C = (A D^2) A^T: the fragment of 2x2 block (J, I) of C accumulates the
// columns k of A in texels K in [k0, k1) (four columns per texel, A stored as runs of four:
// texel (K, i) = A(i, 4K..4K+3); S0 holds B = A D^2 in the same layout, from scale_columns4).
// Per texel: two fetches of B and two of A for sixteen multiply-adds. Drawn over the lower
// triangle of blocks. Without ACCUMULATE the
// sum starts at zero, plus the identity on the padded diagonal (rows i >= m, which A holds as
// zeros); with it, it starts from the partial sum S2 of the previous pass. With DIAGONAL (first
// pass only) the diagonal blocks start from the vector S2 instead (four entries per texel: the
// diagonal the columns of one entry add, and 1 past row m).
uniform samplerRECT S0; // B = A D^2
uniform samplerRECT S1; // A
#if defined(ACCUMULATE) || defined(DIAGONAL)
uniform samplerRECT S2; // C so far, or the diagonal
#endif
uniform float k0;
uniform float k1;
uniform float m;
out vec4 result;

void main() {
    ivec2 g = ivec2(gl_FragCoord.xy);
    int i0 = 2 * g.y;
    int j0 = 2 * g.x;
#ifdef ACCUMULATE
    vec4 acc = texelAt(S2, g);
#else
    vec4 acc = vec4(0.0);
    if (g.x == g.y) {
#ifdef DIAGONAL
        vec4 t = texelAt(S2, ivec2(i0 / 4, 0));
        vec2 d = (i0 % 4 == 0) ? t.xy : t.zw;
        acc.x = d.x;
        acc.w = d.y;
#else
        acc.x = float(i0) >= m ? 1.0 : 0.0;
        acc.w = float(i0 + 1) >= m ? 1.0 : 0.0;
#endif
    }
#endif
    float yi0 = float(i0) + 0.5;
    float yj0 = float(j0) + 0.5;
    for (float k = k0 + 0.5; k < k1; k += 1.0) {
        vec4 a0 = texRECT(S0, vec2(k, yi0));
        vec4 a1 = texRECT(S0, vec2(k, yi0 + 1.0));
        vec4 b0 = texRECT(S1, vec2(k, yj0));
        vec4 b1 = texRECT(S1, vec2(k, yj0 + 1.0));
        acc += vec4(dot(a0, b0), dot(a0, b1), dot(a1, b0), dot(a1, b1));
    }
    result = acc;
}
