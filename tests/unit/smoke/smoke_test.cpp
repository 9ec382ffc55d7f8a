// The smallest proof that the native core links and its hashing is deterministic.
#include <catch2/catch.hpp>

#include "athena/snapshot.h"
#include "athena/version.h"

TEST_CASE("core links and semantic keys are deterministic and ordinal-aware") {
  athena::Snapshot s;
  athena::ReadableNode a;
  a.frame_id = "F";
  a.role = "button";
  a.name = "Delete";
  s.nodes = {a, a};
  athena::assign_semantic_keys(s);
  REQUIRE(s.nodes[0].semantic_key != 0);
  REQUIRE(s.nodes[0].semantic_key != s.nodes[1].semantic_key);  // second "Delete" is another thing
  athena::Snapshot t = s;
  athena::assign_semantic_keys(t);
  REQUIRE(t.nodes[1].semantic_key == s.nodes[1].semantic_key);
  REQUIRE(std::string(athena::kVersion).size() > 0);
}
