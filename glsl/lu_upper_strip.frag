// Blocked LU: the strip U12 = inverse(L11) * (P*A)12 of the panel's rows, on 2x2 blocks. The CPU
// forms inverse(L11) explicitly (the paper: "the inverse of these matrices are formed explicitly"),
// which turns the triangular solve into a product that fragments can compute independently.
// Rows are read through the row map, as in lu_trailing_update.frag.
#ifndef NB
#define NB 32
#endif
uniform samplerRECT S0; // A before this step, 2x2 blocks
uniform samplerRECT S1; // inverse(L11): texel (s, I - k0), zero beyond the panel's width
uniform samplerRECT S2; // row map: texel (I, 0) = (source row of row 2I, of row 2I+1, 0, 0)
uniform float k0;         // the panel's first block row
out vec4 result;

vec2 source_row(float row, float x) {
    vec4 b = texRECT(S0, vec2(x, floor(row * 0.5) + 0.5));
    return mod(row, 2.0) < 0.5 ? b.xy : b.zw;
}

void main() {
    vec2 own = gl_FragCoord.xy;
    float local = own.y - k0;
    vec4 acc = vec4(0.0);
    for (int s = 0; s < NB / 2; ++s) {
        vec4 l = texRECT(S1, vec2(float(s) + 0.5, local));
        vec2 rows = texRECT(S2, vec2(k0 + float(s) + 0.5, 0.5)).xy;
        vec4 a = vec4(source_row(rows.x, own.x), source_row(rows.y, own.x));
        acc += l.xxzz * a.xyxy + l.yyww * a.zwzw;
    }
    result = acc;
}
