// Reading the recorded corpus (tests/cases, docs/capture-format.md) from tests, tools and benches.
#pragma once

#include <string>
#include <vector>

namespace athena::corpus {

/// Whole file as bytes; transparently gunzips "*.gz". Throws std::runtime_error naming the path.
std::string read_file(const std::string& path);

/// Writes bytes to a file (creating parent folders).
void write_file(const std::string& path, const std::string& bytes);

struct Step {
  std::string name;          // "03-open-modal"
  std::string dir;           // absolute folder
  std::string capture_json;  // capture.json(.gz), as the engine is fed
  std::string events_json;   // events.json ("[]" if absent)
  std::string step_json;     // step.json ("{}" if absent)
  std::string ax_path;       // ax.json.gz path ("" if absent)
};

struct Case {
  std::string name;
  std::string dir;
  std::vector<Step> steps;  // in order
};

/// Root of the corpus (ATHENA_CASES_DIR, overridable with the env var of the same name).
std::string cases_dir();

/// Every case with its steps, sorted by name (captures loaded eagerly: they are small).
std::vector<Case> load_cases(const std::string& root = cases_dir());

/// Names of the case folders only.
std::vector<std::string> case_names(const std::string& root = cases_dir());

}  // namespace athena::corpus
