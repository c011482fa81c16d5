//! Pure functions: vertices and texture coordinates of each paper figure.
