// athena-bridge entry point. Modes arrive with issue #8.
#include <cstdio>
#include <cstring>

#include "athena/version.h"

int main(int argc, char** argv) {
  if (argc > 1 && std::strcmp(argv[1], "--version") == 0) {
    std::printf("athena-bridge %s\n", athena::kVersion);
    return 0;
  }
  std::fprintf(stderr, "athena-bridge %s: the native host, MCP server, install and doctor modes are not there yet.\n",
               athena::kVersion);
  return 2;
}
