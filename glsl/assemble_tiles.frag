// Register-tiled assembly of C = (A D^2) A^T: the fragment of tile (J, I) computes the ROWS x COLS
// entries at rows ROWS*I.., columns COLS*J.. over the columns k of A in texels K in [k0, k1)
// (A as runs of four columns: texel (K, i) = A(i, 4K..4K+3); S0 holds B = A D^2 alike). Per
// texel K: ROWS fetches of B and COLS of A for 4*ROWS*COLS multiply-adds. The tile's 2x2 blocks
// go to PLANES targets at once (block (r, c) of the tile to plane (COLS/2)*r + c). Without
// ACCUMULATE the sum starts at zero plus the identity on the padded diagonal (rows >= m, zero
// in A); with it, from the planes of the previous pass (S2, S3, ...).
uniform samplerRECT S0; // B = A D^2
uniform samplerRECT S1; // A
#ifdef ACCUMULATE
uniform samplerRECT S2;
#if PLANES > 1
uniform samplerRECT S3;
#endif
#if PLANES > 2
uniform samplerRECT S4;
uniform samplerRECT S5;
#endif
#if PLANES > 4
uniform samplerRECT S6;
uniform samplerRECT S7;
uniform samplerRECT S8;
uniform samplerRECT S9;
#endif
#endif
uniform float k0;
uniform float k1;
uniform float m;
layout(location = 0) out vec4 tile0;
#if PLANES > 1
layout(location = 1) out vec4 tile1;
#endif
#if PLANES > 2
layout(location = 2) out vec4 tile2;
layout(location = 3) out vec4 tile3;
#endif
#if PLANES > 4
layout(location = 4) out vec4 tile4;
layout(location = 5) out vec4 tile5;
layout(location = 6) out vec4 tile6;
layout(location = 7) out vec4 tile7;
#endif

const int TR = ROWS / 2;
const int TC = COLS / 2;

// The identity's entries in the 2x2 block at rows i0, i0+1 and columns j0, j0+1 past row m.
vec4 padding(int i0, int j0) {
    vec4 e = vec4(0.0);
    if (i0 == j0) {
        e.x = float(i0) >= m ? 1.0 : 0.0;
        e.w = float(i0 + 1) >= m ? 1.0 : 0.0;
    }
    return e;
}

void main() {
    ivec2 g = ivec2(gl_FragCoord.xy);
    int i0 = ROWS * g.y;
    int j0 = COLS * g.x;
    vec4 acc[PLANES];
#ifdef ACCUMULATE
    acc[0] = texelAt(S2, g);
#if PLANES > 1
    acc[1] = texelAt(S3, g);
#endif
#if PLANES > 2
    acc[2] = texelAt(S4, g);
    acc[3] = texelAt(S5, g);
#endif
#if PLANES > 4
    acc[4] = texelAt(S6, g);
    acc[5] = texelAt(S7, g);
    acc[6] = texelAt(S8, g);
    acc[7] = texelAt(S9, g);
#endif
#else
    for (int r = 0; r < TR; ++r) {
        for (int c = 0; c < TC; ++c) {
            acc[TC * r + c] = padding(i0 + 2 * r, j0 + 2 * c);
        }
    }
#endif
    float yi = float(i0) + 0.5;
    float yj = float(j0) + 0.5;
    for (float k = k0 + 0.5; k < k1; k += 1.0) {
        vec4 b[COLS];
        for (int c = 0; c < COLS; ++c) {
            b[c] = texRECT(S1, vec2(k, yj + float(c)));
        }
        for (int r = 0; r < TR; ++r) {
            vec4 a0 = texRECT(S0, vec2(k, yi + float(2 * r)));
            vec4 a1 = texRECT(S0, vec2(k, yi + float(2 * r + 1)));
            for (int c = 0; c < TC; ++c) {
                acc[TC * r + c] += vec4(dot(a0, b[2 * c]), dot(a0, b[2 * c + 1]), dot(a1, b[2 * c]), dot(a1, b[2 * c + 1]));
            }
        }
    }
    tile0 = acc[0];
#if PLANES > 1
    tile1 = acc[1];
#endif
#if PLANES > 2
    tile2 = acc[2];
    tile3 = acc[3];
#endif
#if PLANES > 4
    tile4 = acc[4];
    tile5 = acc[5];
    tile6 = acc[6];
    tile7 = acc[7];
#endif
}
