/* The search with the rules EO_RULES_BAKERS_GAME compiled in (fixed.h). */
#define EO_FIXED_RULES EO_RULES_BAKERS_GAME
#define EO_FIXED_NAME bakers_game
#include "fixed.h"
