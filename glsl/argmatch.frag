// Pivot search for LU (partial pivoting): after a max-abs reduction of the column, each entry
// writes its own index if its magnitude equals the maximum, +inf otherwise; a min reduction then
// yields the first row holding the pivot. A maximum at or below `tiny` (a singular column, up to
// rounding) gives +inf everywhere; a NaN maximum gives NaN.
uniform samplerRECT S0; // the gathered column
uniform samplerRECT S1; // 1x1: max |column|
uniform float tiny;
out float result;

void main() {
    float v = abs(texRECT(S0, gl_FragCoord.xy).r);
    float m = texRECT(S1, vec2(0.5, 0.5)).r;
    if (isnan(m)) {
        result = m;
    } else if (m > tiny && v == m) {
        result = floor(gl_FragCoord.x);
    } else {
        result = uintBitsToFloat(0x7f800000u);
    }
}
