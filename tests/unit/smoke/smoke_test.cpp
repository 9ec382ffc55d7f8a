// The smallest proof that the native core links and its hashing is deterministic.
#include <catch2/catch.hpp>

#include "athena/snapshot.h"
#include "athena/version.h"
#include "engine/view.h"

TEST_CASE("core links and its identity hash is deterministic and sees what the agent sees") {
  athena::ReadableNode a;
  a.frame_id = "F";
  a.role = "button";
  a.name = "Delete";
  athena::ReadableNode b = a;
  REQUIRE(athena::engine::ident_hash(a) != 0);
  REQUIRE(athena::engine::ident_hash(a) == athena::engine::ident_hash(b));
  b.name = "Save";
  REQUIRE(athena::engine::ident_hash(a) != athena::engine::ident_hash(b));
  REQUIRE(std::string(athena::kVersion).size() > 0);
}
