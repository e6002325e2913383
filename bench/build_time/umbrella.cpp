// What including the umbrella costs on its own: nothing is instantiated.
#include <devcol/devcol.hpp>

int main() { return 0; }
