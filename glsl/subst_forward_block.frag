// Blocked forward substitution L y = r on vectors of four entries per texel (L in 2x2 blocks).
// One pass per block of B = BLOCK entries starting at vector texel `offset` (Q): fragments before
// the block copy their entries (final); every other fragment solves the block's B x B triangle
// L11 y_b = r_b from the current right-hand side (S0, already updated by earlier blocks) —
// redundantly, which saves a pass per block — and then writes its own entries of y_b (inside the
// block) or its right-hand side minus L21 y_b (below it).
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
    if (t < q) {
        result = own;
        return;
    }
    int e0 = 4 * q;
    int c0 = 2 * q;
    bool inside = t < q + B / 4;
    int last = inside ? 4 * (t - q) + 3 : B - 1;
    float y[B];
    for (int kp = 0; kp < B / 2; ++kp) {
        if (2 * kp > last) {
            break;
        }
        float r0 = entry(e0 + 2 * kp);
        float r1 = entry(e0 + 2 * kp + 1);
        for (int qp = 0; qp < kp; ++qp) {
            vec4 l = texelAt(S1, ivec2(c0 + qp, c0 + kp));
            r0 -= l.x * y[2 * qp] + l.y * y[2 * qp + 1];
            r1 -= l.z * y[2 * qp] + l.w * y[2 * qp + 1];
        }
        vec4 d = texelAt(S1, ivec2(c0 + kp, c0 + kp));
        y[2 * kp] = r0 / d.x;
        y[2 * kp + 1] = (r1 - d.z * y[2 * kp]) / d.w;
    }
    if (inside) {
        int k = 4 * (t - q);
        result = vec4(y[k], y[k + 1], y[k + 2], y[k + 3]);
        return;
    }
    for (int qp = 0; qp < B / 2; ++qp) {
        vec4 a = texelAt(S1, ivec2(c0 + qp, 2 * t));
        vec4 b = texelAt(S1, ivec2(c0 + qp, 2 * t + 1));
        float y0 = y[2 * qp];
        float y1 = y[2 * qp + 1];
        own -= vec4(a.x * y0 + a.y * y1, a.z * y0 + a.w * y1, b.x * y0 + b.y * y1, b.z * y0 + b.w * y1);
    }
    result = own;
}
