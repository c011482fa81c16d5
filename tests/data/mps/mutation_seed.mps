NAME          MUTSEED
OBJSENSE
    MAX
ROWS
 N  COST
 L  LIM1
 G  LIM2
 E  MYEQN
 L  R4
COLUMNS
    X1        COST         1.0   LIM1         1.0
    X1        LIM2         1.0
    MARKER    'MARKER'     'INTORG'
    X2        COST         2.0   LIM1         1.0
    X2        MYEQN       -1.0
    MARKER    'MARKER'     'INTEND'
    X3        COST        -1.0   MYEQN        1.0
    X3        R4           2.5
    X4        COST         0.5   R4          -1.0
RHS
    RHS       COST        -3.0
    RHS       LIM1         4.0   LIM2         1.0
    RHS       MYEQN        7.0   R4           6.0
RANGES
    RNG       LIM1         2.5   LIM2         3.0
    RNG       MYEQN       -1.5
BOUNDS
 UP BND       X1           4.0
 LO BND       X2          -1.0
 UP BND       X2           1.0
 MI BND       X3
 UP BND       X3           8.0
 FX BND       X4           2.0
ENDATA
