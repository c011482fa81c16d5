// Square root of the pivot at the fragment's own position. A pivot that is not positive (or is
// NaN) is written unchanged, so the breakdown check finds it on the diagonal with its value.
uniform sampler2DRect S0;
out float result;

void main() {
    float v = texture(S0, gl_FragCoord.xy).r;
    result = v > 0.0 ? sqrt(v) : v;
}
