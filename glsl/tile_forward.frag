// Register-tiled forward substitution L y = r on vectors of four entries per texel, with L in
// four planes (S1..S4; plane 2r + c at tile (J, I) holds the 2x2 block (r, c) of the 4x4 tile
// (J, I)), so vector texel t is tile row t. One pass per block of NT = BLOCK/4 tiles starting
// at tile `offset` (Q): fragments before the block copy their entries (final); every other
// fragment solves the block's triangle from the current right-hand side (S0) — redundantly,
// which saves a pass per block — and writes its own entries of y (inside the block) or its
// right-hand side minus L21 y_b (below it). Loops run their constant length (no data-dependent
// break), so they unroll and y stays in registers. A tile is a mat4 whose column r is the
// tile's row r, so L_tile y is transpose(tile) * y.
uniform samplerRECT S0; // the right-hand side so far
uniform samplerRECT S1;
uniform samplerRECT S2;
uniform samplerRECT S3;
uniform samplerRECT S4;
uniform float offset;
out vec4 result;

const int NT = BLOCK / 4;

mat4 tileAt(ivec2 at) {
    vec4 b0 = texelAt(S1, at);
    vec4 b1 = texelAt(S2, at);
    vec4 b2 = texelAt(S3, at);
    vec4 b3 = texelAt(S4, at);
    return mat4(vec4(b0.xy, b1.xy), vec4(b0.zw, b1.zw), vec4(b2.xy, b3.xy), vec4(b2.zw, b3.zw));
}

void main() {
    int t = int(gl_FragCoord.x);
    int q = int(offset);
    vec4 own = texelAt(S0, ivec2(t, 0));
    if (t < q) {
        result = own;
        return;
    }
    bool inside = t < q + NT;
    int last = inside ? t - q : NT - 1;
    vec4 y[NT];
    for (int kp = 0; kp < NT; ++kp) {
        vec4 r = texelAt(S0, ivec2(q + kp, 0));
        for (int qp = 0; qp < kp; ++qp) {
            r -= transpose(tileAt(ivec2(q + qp, q + kp))) * y[qp];
        }
        mat4 d = tileAt(ivec2(q + kp, q + kp));
        vec4 v;
        v.x = r.x / d[0][0];
        v.y = (r.y - d[1][0] * v.x) / d[1][1];
        v.z = (r.z - d[2][0] * v.x - d[2][1] * v.y) / d[2][2];
        v.w = (r.w - d[3][0] * v.x - d[3][1] * v.y - d[3][2] * v.z) / d[3][3];
        y[kp] = v;
        if (kp == last) {
            own = inside ? v : own;
        }
    }
    if (!inside) {
        for (int qp = 0; qp < NT; ++qp) {
            own -= transpose(tileAt(ivec2(q + qp, t))) * y[qp];
        }
    }
    result = own;
}
