#include <cstdio>
int main() { std::puts("stridecheck: under construction"); return 0; }
