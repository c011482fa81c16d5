// Blocked back substitution L^T x = y on vectors of four entries per texel (L in 2x2 blocks).
// One pass per block of B = BLOCK entries starting at vector texel `offset` (Q), last block first:
// fragments after the block copy their entries (final); every other fragment solves
// L11^T x_b = y_b (redundantly) and writes its own entries of x_b (inside the block) or its
// right-hand side minus L21^T x_b (before it).
uniform samplerRECT S0; // the right-hand side so far
uniform samplerRECT S1; // L
uniform float offset;
out vec4 result;

const int B = BLOCK;

float entry(int e) {
    return texelAt(S0, ivec2(e / 4, 0))[e % 4];
}

void main() {
    int t = int(gl_FragCoord.x);
    int q = int(offset);
    vec4 own = texelAt(S0, ivec2(t, 0));
    if (t >= q + B / 4) {
        result = own;
        return;
    }
    int e0 = 4 * q;
    int c0 = 2 * q;
    bool inside = t >= q;
    int first = inside ? 4 * (t - q) : 0;
    float x[B];
    for (int kp = B / 2 - 1; kp >= 0; --kp) {
        if (2 * kp + 1 < first) {
            break;
        }
        float r0 = entry(e0 + 2 * kp);
        float r1 = entry(e0 + 2 * kp + 1);
        for (int qp = kp + 1; qp < B / 2; ++qp) {
            vec4 l = texelAt(S1, ivec2(c0 + kp, c0 + qp));
            r0 -= l.x * x[2 * qp] + l.z * x[2 * qp + 1];
            r1 -= l.y * x[2 * qp] + l.w * x[2 * qp + 1];
        }
        vec4 d = texelAt(S1, ivec2(c0 + kp, c0 + kp));
        x[2 * kp + 1] = r1 / d.w;
        x[2 * kp] = (r0 - d.z * x[2 * kp + 1]) / d.x;
    }
    if (inside) {
        int k = 4 * (t - q);
        result = vec4(x[k], x[k + 1], x[k + 2], x[k + 3]);
        return;
    }
    for (int qp = 0; qp < B / 2; ++qp) {
        vec4 a = texelAt(S1, ivec2(2 * t, c0 + qp));
        vec4 b = texelAt(S1, ivec2(2 * t + 1, c0 + qp));
        float x0 = x[2 * qp];
        float x1 = x[2 * qp + 1];
        own -= vec4(a.x * x0 + a.z * x1, a.y * x0 + a.w * x1, b.x * x0 + b.z * x1, b.y * x0 + b.w * x1);
    }
    result = own;
}
