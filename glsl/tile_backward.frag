// Register-tiled back substitution L^T x = y on vectors of four entries per texel, with L in
// four planes (S1..S4, as in tile_forward.frag). One pass per block of NT = BLOCK/4 tiles
// starting at tile `offset` (Q), last block first: fragments after the block copy their entries
// (final); every other fragment solves L11^T x_b = y_b (redundantly) and writes its own entries
// of x_b (inside the block) or its right-hand side minus L21^T x_b (before it). Loops run their
// constant length, so they unroll and x stays in registers. A tile is a mat4 whose column r is
// the tile's row r, so tile^T x is tile * x.
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
    if (t >= q + NT) {
        result = own;
        return;
    }
    bool inside = t >= q;
    int first = inside ? t - q : 0;
    vec4 x[NT];
    for (int kp = NT - 1; kp >= 0; --kp) {
        vec4 r = texelAt(S0, ivec2(q + kp, 0));
        for (int qp = kp + 1; qp < NT; ++qp) {
            r -= tileAt(ivec2(q + kp, q + qp)) * x[qp];
        }
        mat4 d = tileAt(ivec2(q + kp, q + kp));
        vec4 v;
        v.w = r.w / d[3][3];
        v.z = (r.z - d[3][2] * v.w) / d[2][2];
        v.y = (r.y - d[2][1] * v.z - d[3][1] * v.w) / d[1][1];
        v.x = (r.x - d[1][0] * v.y - d[2][0] * v.z - d[3][0] * v.w) / d[0][0];
        x[kp] = v;
        if (kp == first) {
            own = inside ? v : own;
        }
    }
    if (!inside) {
        for (int qp = 0; qp < NT; ++qp) {
            own -= tileAt(ivec2(t, q + qp)) * x[qp];
        }
    }
    result = own;
}
