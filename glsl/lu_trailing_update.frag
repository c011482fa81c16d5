// Blocked right-looking LU (Volkov and Demmel's hybrid LU, as the mixed-precision paper uses it):
// the trailing update A22 <- P*A22 - L21*U12 on 2x2 blocks, one RGBA texel per block
// (layout::Blocks2x2: texel (J, I) holds rows 2I, 2I+1 of columns 2J, 2J+1 in R, G, B, A).
// The fragment at block (J, I) reads its own two rows through the row map, so the panel's row
// interchanges cost no passes of their own, then adds NB/2 products of 2x2 blocks: two fetches
// per eight multiply-adds (the one-value kernels fetch three values per multiply-add).
#ifndef NB
#define NB 32
#endif
uniform samplerRECT S0; // A before this step, 2x2 blocks
uniform samplerRECT S1; // L21: texel (t, I) = rows 2I, 2I+1 of the panel's columns 2t, 2t+1
uniform samplerRECT S2; // U: texel (J, k0 + t) = U12's block (t, J)
uniform samplerRECT S3; // row map: texel (I, 0) = (source row of row 2I, of row 2I+1, 0, 0)
uniform float k0;         // the panel's first block row (its first row / 2)
out vec4 result;

// Row `row` of A (an exact integer in a float) at block column x: the top or bottom half of a block.
vec2 source_row(float row, float x) {
    vec4 b = texRECT(S0, vec2(x, floor(row * 0.5) + 0.5));
    return mod(row, 2.0) < 0.5 ? b.xy : b.zw;
}

void main() {
    vec2 own = gl_FragCoord.xy;
    vec2 rows = texRECT(S3, vec2(own.y, 0.5)).xy;
    vec4 acc = vec4(0.0);
    for (int t = 0; t < NB / 2; ++t) {
        vec4 l = texRECT(S1, vec2(float(t) + 0.5, own.y));
        vec4 u = texRECT(S2, vec2(own.x, k0 + float(t) + 0.5));
        // [l.x l.y; l.z l.w] * [u.x u.y; u.z u.w], row-major in RGBA.
        acc += l.xxzz * u.xyxy + l.yyww * u.zwzw;
    }
    result = vec4(source_row(rows.x, own.x), source_row(rows.y, own.x)) - acc;
}
