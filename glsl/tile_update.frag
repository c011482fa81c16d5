// Register-tiled Cholesky, step 3 of 3: the rank-B update A22 - L21 L21^T of the trailing lower
// triangle of 4x4 tiles. Matrices are held in four planes (S0..S3 the trailing matrix, S4..S7
// the factor): plane 2r + c at tile (J, I) holds the 2x2 block (r, c) of tile (J, I). Fragment
// (J, I) reads its own tile once and, per tile column t of the panel (at tile offset P), the
// tiles of rows I and J of L: eight fetches for 64 multiply-adds. A tile is a mat4 whose
// column r is the tile's row r, so tile_I tile_J^T is transpose(L_J) * L_I.
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
    mat4 acc = tileAt(S0, S1, S2, S3, g);
    for (int t = 0; t < NT; ++t) {
        mat4 li = tileAt(S4, S5, S6, S7, ivec2(P + t, g.y));
        mat4 lj = tileAt(S4, S5, S6, S7, ivec2(P + t, g.x));
        acc -= transpose(lj) * li;
    }
    tile0 = vec4(acc[0].xy, acc[1].xy);
    tile1 = vec4(acc[0].zw, acc[1].zw);
    tile2 = vec4(acc[2].xy, acc[3].xy);
    tile3 = vec4(acc[2].zw, acc[3].zw);
}
