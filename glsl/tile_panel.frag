// Register-tiled Cholesky, step 2 of 3: the panel L21 = A21 L11^-T, written with the diagonal
// block into the factor's four planes (tile column offset P). Planes as in tile_update.frag:
// S0..S3 the trailing matrix (A21), S4..S7 L11 (NT x NT tiles). Fragments of the diagonal block
// copy L11; a fragment below it solves its four rows X L11^T = A21 by forward substitution,
// tile column by tile column (four fetches of L11 per 64 multiply-adds). It solves all NT tile
// columns, not only those up to its own: loops of constant length unroll, so the solved tiles
// stay in registers (llvmpipe turns an array indexed past a data-dependent break into memory
// traffic per lane). A tile is a mat4 whose column r is the tile's row r.
uniform samplerRECT S0;
uniform samplerRECT S1;
uniform samplerRECT S2;
uniform samplerRECT S3;
uniform samplerRECT S4;
uniform samplerRECT S5;
uniform samplerRECT S6;
uniform samplerRECT S7;
uniform float offset;
layout(location = 0) out vec4 tile0;
layout(location = 1) out vec4 tile1;
layout(location = 2) out vec4 tile2;
layout(location = 3) out vec4 tile3;

const int NT = BLOCK / 4;

mat4 tileAt(samplerRECT p0, samplerRECT p1, samplerRECT p2, samplerRECT p3, ivec2 at) {
    vec4 b0 = texelAt(p0, at);
    vec4 b1 = texelAt(p1, at);
    vec4 b2 = texelAt(p2, at);
    vec4 b3 = texelAt(p3, at);
    return mat4(vec4(b0.xy, b1.xy), vec4(b0.zw, b1.zw), vec4(b2.xy, b3.xy), vec4(b2.zw, b3.zw));
}

void main() {
    int P = int(offset);
    ivec2 g = ivec2(gl_FragCoord.xy);
    int xl = g.x - P;
    mat4 own;
    if (g.y < P + NT) {
        own = tileAt(S4, S5, S6, S7, ivec2(xl, g.y - P));
    } else {
        mat4 x[NT];
        for (int cp = 0; cp < NT; ++cp) {
            mat4 s = tileAt(S0, S1, S2, S3, ivec2(P + cp, g.y));
            for (int qp = 0; qp < cp; ++qp) {
                // s -= X_qp L11(cp, qp)^T
                s -= transpose(tileAt(S4, S5, S6, S7, ivec2(qp, cp))) * x[qp];
            }
            mat4 d = tileAt(S4, S5, S6, S7, ivec2(cp, cp));
            // X d^T = s with d lower triangular, column by column for all four rows at once.
            vec4 s0 = vec4(s[0][0], s[1][0], s[2][0], s[3][0]);
            vec4 s1 = vec4(s[0][1], s[1][1], s[2][1], s[3][1]);
            vec4 s2 = vec4(s[0][2], s[1][2], s[2][2], s[3][2]);
            vec4 s3 = vec4(s[0][3], s[1][3], s[2][3], s[3][3]);
            vec4 x0 = s0 / d[0][0];
            vec4 x1 = (s1 - x0 * d[1][0]) / d[1][1];
            vec4 x2 = (s2 - x0 * d[2][0] - x1 * d[2][1]) / d[2][2];
            vec4 x3 = (s3 - x0 * d[3][0] - x1 * d[3][1] - x2 * d[3][2]) / d[3][3];
            x[cp] = mat4(vec4(x0[0], x1[0], x2[0], x3[0]), vec4(x0[1], x1[1], x2[1], x3[1]),
                         vec4(x0[2], x1[2], x2[2], x3[2]), vec4(x0[3], x1[3], x2[3], x3[3]));
            if (cp == xl) {
                own = x[cp];
            }
        }
    }
    tile0 = vec4(own[0].xy, own[1].xy);
    tile1 = vec4(own[0].zw, own[1].zw);
    tile2 = vec4(own[2].xy, own[3].xy);
    tile3 = vec4(own[2].zw, own[3].zw);
}
