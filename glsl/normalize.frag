// Kernel 4 (2008 structure paper): the element divided by the pivot whose index T0 carries.
uniform samplerRECT S0;
in vec3 T0;
out float result;

void main() {
    result = texRECT(S0, gl_FragCoord.xy).r / texRECT(S0, T0.xy).r;
}
