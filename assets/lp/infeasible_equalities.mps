* x1 + x2 = 1 and x1 + x2 = 3 (x >= 0): contradictory equalities, primal infeasible.
NAME          INFEQ
ROWS
 N  COST
 E  R1
 E  R2
 L  R3
COLUMNS
    X1        COST      1.0        R1        1.0
    X1        R2        1.0        R3        1.0
    X2        COST      1.0        R1        1.0
    X2        R2        1.0        R3        2.0
    X3        COST      1.0        R3        1.0
RHS
    RHS       R1        1.0        R2        3.0
    RHS       R3        10.0
ENDATA
