#extension GL_ARB_gpu_shader_fp64 : require
// Blocked backward substitution's GPU half (the mixed-precision paper, Figs. 2-3): as each block
// of x is final, r <- r - A(:, block) * x_block in double precision, so that r = b - A*x (formula
// (1) of its Fig. 1) is ready when the sweep ends. Textures hold floats, so each double is stored
// as three floats (hi, mid, lo) whose exact sum is the double (24 + 24 + 24 bits cover 53).
uniform samplerRECT S0; // r before this pass: texel (0, i) = split r(i)
uniform samplerRECT S1; // A: texel (j, i) = split A(i, j)
uniform samplerRECT S2; // x_block: texel (t, 0) = split x(c0 + t)
uniform float c0;         // the block's first column
uniform float count;      // the block's width
out vec4 result;

double join(vec4 v) {
    return double(v.x) + double(v.y) + double(v.z);
}

void main() {
    float i = gl_FragCoord.y;
    double acc = join(texRECT(S0, vec2(0.5, i)));
    int n = int(count);
    for (int t = 0; t < n; ++t) {
        double a = join(texRECT(S1, vec2(c0 + float(t) + 0.5, i)));
        double x = join(texRECT(S2, vec2(float(t) + 0.5, 0.5)));
        acc -= a * x;
    }
    // Split again: hi takes 24 bits, the remainder is exact in double, mid the next 24, lo the rest.
    float hi = float(acc);
    double rest = acc - double(hi);
    float mid = float(rest);
    float lo = float(rest - double(mid));
    result = vec4(hi, mid, lo, 0.0);
}
