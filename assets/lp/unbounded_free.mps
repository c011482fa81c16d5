* min x1 s.t. x1 - x2 >= 0 with x1 free, x2 free: x1 = x2 -> -inf. Dual infeasible.
NAME          UNBFREE
ROWS
 N  COST
 G  R1
COLUMNS
    X1        COST      1.0        R1        1.0
    X2        R1       -1.0
BOUNDS
 FR BND       X1
 FR BND       X2
ENDATA
