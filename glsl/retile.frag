// From 8x4 tiles (eight planes S0..S7: plane 2r + c at tile (J, I) holds the 2x2 block (r, c)
// of the tile of rows 8I.., columns 4J..) to 4x4 tiles (four planes): 4x4 tile (J, I) is the
// upper (I even) or lower (I odd) half of 8x4 tile (J, I/2).
uniform samplerRECT S0;
uniform samplerRECT S1;
uniform samplerRECT S2;
uniform samplerRECT S3;
uniform samplerRECT S4;
uniform samplerRECT S5;
uniform samplerRECT S6;
uniform samplerRECT S7;
layout(location = 0) out vec4 tile0;
layout(location = 1) out vec4 tile1;
layout(location = 2) out vec4 tile2;
layout(location = 3) out vec4 tile3;

void main() {
    ivec2 g = ivec2(gl_FragCoord.xy);
    ivec2 at = ivec2(g.x, g.y / 2);
    if (g.y % 2 == 0) {
        tile0 = texelAt(S0, at);
        tile1 = texelAt(S1, at);
        tile2 = texelAt(S2, at);
        tile3 = texelAt(S3, at);
    } else {
        tile0 = texelAt(S4, at);
        tile1 = texelAt(S5, at);
        tile2 = texelAt(S6, at);
        tile3 = texelAt(S7, at);
    }
}
