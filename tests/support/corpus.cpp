#include "corpus.h"

#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace fs = std::filesystem;

namespace athena::corpus {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string gunzip(const std::string& in, const std::string& path) {
  z_stream zs{};
  if (inflateInit2(&zs, 15 + 32) != Z_OK) throw std::runtime_error("zlib init failed for " + path);
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  std::string out;
  char buf[1 << 16];
  int rc = Z_OK;
  while (rc == Z_OK) {
    zs.next_out = reinterpret_cast<Bytef*>(buf);
    zs.avail_out = sizeof buf;
    rc = inflate(&zs, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      inflateEnd(&zs);
      throw std::runtime_error("corrupt gzip: " + path);
    }
    out.append(buf, sizeof buf - zs.avail_out);
  }
  inflateEnd(&zs);
  return out;
}

std::string read_optional(const fs::path& dir, const std::string& name, const std::string& fallback) {
  if (fs::exists(dir / name)) return read_file((dir / name).string());
  if (fs::exists(dir / (name + ".gz"))) return read_file((dir / (name + ".gz")).string());
  return fallback;
}

}  // namespace

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + path);
  std::ostringstream ss;
  ss << f.rdbuf();
  std::string bytes = ss.str();
  return ends_with(path, ".gz") ? gunzip(bytes, path) : bytes;
}

void write_file(const std::string& path, const std::string& bytes) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!f) throw std::runtime_error("cannot write " + path);
  f << bytes;
}

std::string cases_dir() {
  if (const char* env = std::getenv("ATHENA_CASES_DIR")) return env;
  return ATHENA_CASES_DIR;
}

std::vector<std::string> case_names(const std::string& root) {
  std::vector<std::string> names;
  if (!fs::exists(root)) return names;
  for (const auto& e : fs::directory_iterator(root)) {
    if (e.is_directory() && fs::exists(e.path() / "case.json")) names.push_back(e.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<Case> load_cases(const std::string& root) {
  std::vector<Case> cases;
  for (const std::string& name : case_names(root)) {
    Case c;
    c.name = name;
    c.dir = (fs::path(root) / name).string();
    std::vector<fs::path> dirs;
    for (const auto& e : fs::directory_iterator(c.dir)) {
      if (e.is_directory()) dirs.push_back(e.path());
    }
    std::sort(dirs.begin(), dirs.end());
    for (const fs::path& d : dirs) {
      if (!fs::exists(d / "capture.json") && !fs::exists(d / "capture.json.gz")) continue;
      Step s;
      s.name = d.filename().string();
      s.dir = d.string();
      s.capture_json = read_optional(d, "capture.json", "");
      s.events_json = read_optional(d, "events.json", "[]");
      s.step_json = read_optional(d, "step.json", "{}");
      if (fs::exists(d / "ax.json.gz")) s.ax_path = (d / "ax.json.gz").string();
      c.steps.push_back(std::move(s));
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

}  // namespace athena::corpus
