* min -x1 - x2 s.t. x1 - x2 <= 1, x >= 0: the ray (1, 1) keeps the row satisfied and lowers the
* objective without bound (dual infeasible).
NAME          UNBOUND
ROWS
 N  COST
 L  R1
COLUMNS
    X1        COST     -1.0        R1        1.0
    X2        COST     -1.0        R1       -1.0
RHS
    RHS       R1        1.0
ENDATA
