// Writes a constant into all four channels (clears RGBA textures). MASKED: a vector of four
// entries per texel whose lanes at or past `len` stay zero.
uniform float value;
#ifdef MASKED
uniform float len;
#endif
out vec4 result;

void main() {
    result = vec4(value);
#ifdef MASKED
    float e = float(4 * int(gl_FragCoord.x));
    result = vec4(e < len ? value : 0.0, e + 1.0 < len ? value : 0.0, e + 2.0 < len ? value : 0.0,
                  e + 3.0 < len ? value : 0.0);
#endif
}
