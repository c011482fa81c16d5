// Copy kernel: the element at the fragment's own position (WPOS in the papers).
uniform sampler2DRect S0;
out float result;

void main() {
    result = texture(S0, gl_FragCoord.xy).r;
}
