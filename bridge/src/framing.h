// Framing shared by native messaging (Chrome <-> native host, stdin/stdout) and the local socket
// (native host <-> MCP servers): a 4-byte little-endian length, then that many bytes of UTF-8 JSON.
// Messages to Chrome larger than limits::kMaxToChromeBytes travel as `chunk` messages.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "limits.h"

namespace athena::bridge {

using nlohmann::json;

/// One frame's bytes: length prefix + payload.
std::string encode_frame(const std::string& payload);

/// Incremental frame parser: feed bytes as they arrive, take complete payloads out.
class FrameReader {
 public:
  explicit FrameReader(std::size_t max_frame) : max_(max_frame) {}
  /// Appends bytes. Returns false (and stays failed) when a frame announces more than the limit:
  /// the stream cannot be resynchronised, the caller must drop the connection.
  bool feed(const char* data, std::size_t n);
  /// The next complete payload, if any.
  std::optional<std::string> next();
  bool failed() const { return failed_; }
  const std::string& error() const { return error_; }
  /// Bytes of an incomplete frame still buffered (non-zero at EOF = a truncated message).
  std::size_t pending() const { return buf_.size() - pos_; }

 private:
  std::size_t max_;
  std::string buf_;
  std::size_t pos_ = 0;
  bool failed_ = false;
  std::string error_;
};

/// Splits a message for Chrome: the message itself if it fits, else `chunk` messages
/// {type:"chunk", id, seq, total, data} whose data, joined in order, is the message text.
std::vector<std::string> split_for_chrome(const std::string& text, const std::string& id, std::size_t max_bytes);

/// Reassembles `chunk` messages; returns the whole text when the last piece arrives. The rule,
/// pieces strictly in order, is one table with extension/lib/native.js: rules/native-chunks.json.
class ChunkAssembler {
 public:
  /// The bounds of one message: pieces and reassembled bytes (rules/native-chunks.json).
  explicit ChunkAssembler(std::size_t max_chunks = limits::kMaxChunks, std::size_t max_bytes = limits::kMaxFrameBytes)
      : max_chunks_(max_chunks), max_bytes_(max_bytes) {}
  /// Returns the complete text, std::nullopt while incomplete; throws std::invalid_argument on a
  /// malformed chunk (bad fields, out-of-order seq, inconsistent total, too many pieces).
  std::optional<std::string> add(const json& chunk);
  std::size_t open() const { return parts_.size(); }

 private:
  struct Part {
    std::size_t total = 0;
    std::size_t next = 0;
    std::string text;
  };
  std::size_t max_chunks_;
  std::size_t max_bytes_;
  std::map<std::string, Part> parts_;
};

}  // namespace athena::bridge
