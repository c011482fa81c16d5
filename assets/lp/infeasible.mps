* x1 + x2 >= 4 and x1 + x2 <= 2 with x >= 0: primal infeasible (dual unbounded).
NAME          INFEAS
ROWS
 N  COST
 G  LOWER
 L  UPPER
COLUMNS
    X1        COST      1.0        LOWER     1.0
    X1        UPPER     1.0
    X2        COST      2.0        LOWER     1.0
    X2        UPPER     1.0
RHS
    RHS       LOWER     4.0        UPPER     2.0
ENDATA
