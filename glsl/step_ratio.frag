// Line search (2006 paper §4.2): the largest alpha with x + alpha*dx >= 0 is the minimum over the
// entries with dx < 0 of -x/dx. Entries with dx >= 0 give +inf; a NaN stays NaN.
uniform samplerRECT S0; // x
uniform samplerRECT S1; // dx
out float result;

void main() {
    float x = texRECT(S0, gl_FragCoord.xy).r;
    float dx = texRECT(S1, gl_FragCoord.xy).r;
    if (isnan(x) || isnan(dx)) {
        result = uintBitsToFloat(0x7fc00000u);
    } else {
        result = dx < 0.0 ? -x / dx : uintBitsToFloat(0x7f800000u);
    }
}
