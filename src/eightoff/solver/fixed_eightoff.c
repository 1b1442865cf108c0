/* The search with the rules EO_RULES_EIGHTOFF compiled in (fixed.h). */
#define EO_FIXED_RULES EO_RULES_EIGHTOFF
#define EO_FIXED_SOLVE eo_solve_eightoff
#include "fixed.h"
