#include "framing.h"

#include <stdexcept>

#include "limits.h"

namespace athena::bridge {

namespace {

/// The little-endian length prefix at `pos` (the caller checked 4 bytes are there).
std::uint32_t length_at(const std::string& b, std::size_t pos) {
  std::uint32_t len = 0;
  for (int k = 0; k < 4; ++k)
    len |= static_cast<std::uint32_t>(static_cast<unsigned char>(b[pos + static_cast<std::size_t>(k)])) << (8 * k);
  return len;
}

std::string too_big(std::uint32_t len, std::size_t max) {
  return "a message of " + std::to_string(len) + " bytes exceeds the limit of " + std::to_string(max) + " bytes";
}

}  // namespace

std::string encode_frame(const std::string& payload) {
  const auto n = static_cast<std::uint32_t>(payload.size());
  std::string out;
  out.reserve(4 + payload.size());
  for (int k = 0; k < 4; ++k) out.push_back(static_cast<char>((n >> (8 * k)) & 0xff));
  out += payload;
  return out;
}

bool FrameReader::feed(const char* data, std::size_t n) {
  if (failed_) return false;
  if (pos_ > 0 && pos_ == buf_.size()) {
    buf_.clear();
    pos_ = 0;
  }
  buf_.append(data, n);
  if (buf_.size() - pos_ >= 4 && length_at(buf_, pos_) > max_) {
    failed_ = true;
    error_ = too_big(length_at(buf_, pos_), max_);
    return false;
  }
  return true;
}

std::optional<std::string> FrameReader::next() {
  if (failed_ || buf_.size() - pos_ < 4) return std::nullopt;
  const std::uint32_t len = length_at(buf_, pos_);
  if (len > max_) {
    failed_ = true;
    error_ = too_big(len, max_);
    return std::nullopt;
  }
  if (buf_.size() - pos_ - 4 < len) return std::nullopt;
  std::string out = buf_.substr(pos_ + 4, len);
  pos_ += 4 + len;
  if (pos_ > (1u << 20) && pos_ * 2 > buf_.size()) {  // compact now and then
    buf_.erase(0, pos_);
    pos_ = 0;
  }
  // Check the next header eagerly so an oversized frame fails as soon as it is announced.
  if (buf_.size() - pos_ >= 4 && length_at(buf_, pos_) > max_) {
    failed_ = true;
    error_ = too_big(length_at(buf_, pos_), max_);
  }
  return out;
}

std::vector<std::string> split_for_chrome(const std::string& text, const std::string& id, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return {text};
  // Data is JSON-escaped inside the chunk message: size pieces so the worst case (\u00XX for
  // every byte is 6x) still fits; typical text escapes little, so use a safe fraction.
  const std::size_t piece = std::max<std::size_t>(1, std::min(limits::kChunkDataBytes, (max_bytes - 256) / 6));
  std::vector<std::string> out;
  const std::size_t total = (text.size() + piece - 1) / piece;
  for (std::size_t seq = 0, at = 0; at < text.size(); ++seq, at += piece) {
    // Never split a UTF-8 sequence: the JSON of each piece must be valid.
    std::size_t end = std::min(text.size(), at + piece);
    while (end < text.size() && end > at && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    const json c = {{"type", "chunk"}, {"id", id}, {"seq", seq}, {"total", total}, {"data", text.substr(at, end - at)}};
    out.push_back(c.dump());
    at = end - piece;  // the loop adds `piece`
  }
  // The UTF-8 back-off may have produced more pieces than announced: fix the totals.
  if (out.size() != total) {
    for (auto& s : out) {
      json c = json::parse(s);
      c["total"] = out.size();
      s = c.dump();
    }
  }
  return out;
}

std::optional<std::string> ChunkAssembler::add(const json& c) {
  if (!c.is_object() || !c.contains("id") || !c["id"].is_string() || !c.contains("seq") ||
      !c["seq"].is_number_unsigned() || !c.contains("total") || !c["total"].is_number_unsigned() ||
      !c.contains("data") || !c["data"].is_string())
    throw std::invalid_argument("chunk: needs string id, unsigned seq and total, string data");
  const std::string id = c["id"];
  const std::size_t seq = c["seq"], total = c["total"];
  if (total == 0 || total > max_chunks_)
    throw std::invalid_argument("chunk " + id + ": total " + std::to_string(total) + " outside 1.." +
                                std::to_string(max_chunks_));
  Part& p = parts_[id];
  if (p.next == 0) p.total = total;
  if (p.total != total || seq != p.next) {
    const std::string why = "chunk " + id + ": piece " + std::to_string(seq) + " of " + std::to_string(total) +
                            " out of order (expected " + std::to_string(p.next) + ")";
    parts_.erase(id);  // invalidates p: the message is built first
    throw std::invalid_argument(why);
  }
  p.text += c["data"].get<std::string>();
  if (p.text.size() > max_bytes_) {
    parts_.erase(id);
    throw std::invalid_argument("chunk " + id + ": reassembled message exceeds " + std::to_string(max_bytes_) +
                                " bytes");
  }
  if (++p.next < p.total) return std::nullopt;
  std::string out = std::move(p.text);
  parts_.erase(id);
  return out;
}

}  // namespace athena::bridge
