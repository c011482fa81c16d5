// Copy kernel: the element at the fragment's own position (WPOS in the papers).
uniform samplerRECT S0;
out float result;

void main() {
    result = texRECT(S0, gl_FragCoord.xy).r;
}
