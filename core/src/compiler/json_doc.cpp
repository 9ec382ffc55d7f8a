// One file past 400 lines: one parser of untrusted JSON; its scanner, string, number and depth rules share one cursor.
#include "compiler/json_doc.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "compiler/utf8.h"

namespace athena::compiler {

const char* JsonValue::type_name() const {
  switch (type_) {
    case Type::kNull:
      return "null";
    case Type::kFalse:
    case Type::kTrue:
      return "boolean";
    case Type::kInteger:
    case Type::kUnsigned:
    case Type::kFloat:
      return "number";
    case Type::kString:
      return "string";
    case Type::kArray:
      return "array";
    case Type::kObject:
      return "object";
  }
  return "null";
}

double JsonValue::as_double() const {
  switch (type_) {
    case Type::kInteger:
      return static_cast<double>(i_);
    case Type::kUnsigned:
      return static_cast<double>(u_);
    case Type::kFloat:
      return d_;
    default:
      return 0;
  }
}

const JsonValue* JsonValue::find(std::string_view key) const {
  if (type_ != Type::kObject) return nullptr;
  for (std::size_t k = n_; k >= 2; k -= 2)
    if (kids_[k - 2].str() == key) return &kids_[k - 1];
  return nullptr;
}

// Iterative (no recursion, so no depth a hostile input could exhaust). Children of an open
// container wait on `pending_`; when it closes they move, contiguous, to values_, and the
// container records where (fixed up to pointers once values_ stops growing).
class JsonDoc::Parser {
 public:
  Parser(std::string_view text, JsonDoc& doc)
      : begin_(text.data()), p_(text.data()), end_(text.data() + text.size()), doc_(doc) {}

  bool run() {
    struct Open {
      std::size_t first;  // its first child in pending_
      bool object;
    };
    std::vector<Open> open;
    pending_.resize(256);
    // Captures average 3.8 bytes of text per value (mostly short numbers): reserving one per 3
    // bytes avoids regrowing (a 10 MB copy on the 10,000-element page); pages never touched
    // cost nothing.
    reserve(static_cast<std::size_t>(end_ - begin_) / 3 + 16);
    for (;;) {
      JsonValue v{};
      ws();
      if (p_ == end_) return fail_at_end();
      switch (*p_) {
        case '{':
        case '[': {
          const bool object = *p_ == '{';
          ++p_;
          ws();
          if (p_ < end_ && *p_ == (object ? '}' : ']')) {
            ++p_;
            v.type_ = object ? JsonValue::Type::kObject : JsonValue::Type::kArray;
            v.at_ = 0;
            break;
          }
          open.push_back({pending_size_, object});
          if (object && !key()) return false;
          continue;  // its first value
        }
        case '"':
          if (!string(v)) return false;
          break;
        case 't':
          if (!literal("true")) return false;
          v.type_ = JsonValue::Type::kTrue;
          break;
        case 'f':
          if (!literal("false")) return false;
          v.type_ = JsonValue::Type::kFalse;
          break;
        case 'n':
          if (!literal("null")) return false;
          v.type_ = JsonValue::Type::kNull;
          break;
        default:
          if (!small_int(v) && !number(v)) return false;
      }
      // `v` is complete: hand it to its container, closing containers as far as they end here.
      for (;;) {
        if (open.empty()) {
          ws();
          if (p_ != end_) return fail(p_);
          doc_.root_ = v;
          fix_up();
          return true;
        }
        push(v);
        const Open o = open.back();
        ws();
        if (p_ == end_) return fail_at_end();
        if (*p_ == ',') {
          ++p_;
          if (o.object && !key()) return false;
          break;  // the next value
        }
        if (*p_ != (o.object ? '}' : ']')) return fail(p_);
        ++p_;
        const std::size_t count = pending_size_ - o.first;
        if (count > std::numeric_limits<std::uint32_t>::max()) return fail(p_);
        v = JsonValue{};
        v.type_ = o.object ? JsonValue::Type::kObject : JsonValue::Type::kArray;
        v.n_ = static_cast<std::uint32_t>(count);
        v.at_ = doc_.size_;
        if (doc_.size_ + count > doc_.capacity_) reserve(std::max(doc_.capacity_ * 2, doc_.size_ + count));
        std::memcpy(doc_.values_.get() + doc_.size_, pending_.data() + o.first, count * sizeof(JsonValue));
        doc_.size_ += count;
        pending_size_ = o.first;
        open.pop_back();
      }
    }
  }

  std::size_t error_at() const { return error_at_; }
  bool ran_out() const { return ran_out_; }  // the text ended where more was needed

 private:
  // Field by field, not as one 16-byte copy: `v` was just written a field at a time, and a
  // 16-byte load of it stalls on store forwarding (that stall was half of the parse).
  void push(const JsonValue& v) {
    if (pending_size_ == pending_.size()) pending_.resize(pending_.size() * 2);
    JsonValue& slot = pending_[pending_size_++];
    slot.type_ = v.type_;
    slot.n_ = v.n_;
    slot.u_ = v.u_;
  }

  void ws() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }
  // Positions as nlohmann counted them: the byte after the offending one, or the end.
  bool fail(const char* at) {
    error_at_ = std::min(static_cast<std::size_t>(at - begin_) + 1, static_cast<std::size_t>(end_ - begin_));
    return false;
  }
  bool fail_at_end() {
    error_at_ = static_cast<std::size_t>(end_ - begin_);
    ran_out_ = true;
    return false;
  }

  bool literal(std::string_view word) {
    for (const char ch : word) {
      if (p_ == end_) return fail_at_end();
      if (*p_ != ch) return fail(p_);
      ++p_;
    }
    return true;
  }

  bool key() {
    ws();
    if (p_ == end_) return fail_at_end();
    if (*p_ != '"') return fail(p_);
    JsonValue k{};
    if (!string(k)) return false;
    push(k);
    ws();
    if (p_ == end_) return fail_at_end();
    if (*p_ != ':') return fail(p_);
    ++p_;
    return true;
  }

  // Most of a capture is short integers (indices, ids, node types): read them here, and leave
  // everything else (-0, fractions, exponents, long or invalid numbers) to number(), which
  // starts again from the same place.
  bool small_int(JsonValue& v) {
    const char* q = p_;
    const bool neg = *q == '-';
    if (neg && ++q == end_) return false;
    if (*q < '0' || *q > '9' || (neg && *q == '0')) return false;
    std::int64_t n = 0;
    if (*q == '0') {
      ++q;  // a leading zero is the whole integer part
    } else {
      const char* stop = end_ - q > 18 ? q + 18 : end_;  // 18 digits always fit int64
      while (q < stop && *q >= '0' && *q <= '9') n = n * 10 + (*q++ - '0');
    }
    if (q < end_ && ((*q >= '0' && *q <= '9') || *q == '.' || *q == 'e' || *q == 'E')) return false;
    v.type_ = JsonValue::Type::kInteger;
    v.i_ = neg ? -n : n;
    p_ = q;
    return true;
  }

  // RFC 8259 numbers. Integers that fit are exact; other numbers take Clinger's fast path
  // (exact whenever the digits fit 2^53 and the power of ten is at most 22, which covers
  // CDP's coordinates) and strtod otherwise, so every value is the correctly rounded double.
  bool number(JsonValue& v) {
    const char* start = p_;
    const bool neg = *p_ == '-';
    if (neg) ++p_;
    if (p_ == end_) return fail_at_end();
    if (*p_ < '0' || *p_ > '9') return fail(p_);
    std::uint64_t mant = 0;
    int dropped = 0;  // integer digits that did not fit mant (it is then scaled by 10^dropped)
    bool overflow = false;
    int folded = 0;  // digits folded into mant: 19 always fit, the 20th is checked (a division)
    const auto fits = [&mant, &folded](char ch) {
      return ++folded <= 19 || mant <= (UINT64_MAX - static_cast<std::uint64_t>(ch - '0')) / 10;
    };
    if (*p_ == '0') {
      ++p_;
    } else {
      for (; p_ < end_ && *p_ >= '0' && *p_ <= '9'; ++p_) {
        if (!overflow && fits(*p_)) {
          mant = mant * 10 + static_cast<std::uint64_t>(*p_ - '0');
        } else {
          overflow = true;
          ++dropped;
        }
      }
    }
    const bool int_only_digits = !overflow;
    bool is_float = false;
    int frac = 0;  // fractional digits folded into mant
    if (p_ < end_ && *p_ == '.') {
      is_float = true;
      ++p_;
      if (p_ == end_) return fail_at_end();
      if (*p_ < '0' || *p_ > '9') return fail(p_);
      for (; p_ < end_ && *p_ >= '0' && *p_ <= '9'; ++p_) {
        if (!overflow && fits(*p_)) {
          mant = mant * 10 + static_cast<std::uint64_t>(*p_ - '0');
          ++frac;
        } else {
          overflow = true;
        }
      }
    }
    int exp = 0;
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      is_float = true;
      ++p_;
      bool eneg = false;
      if (p_ < end_ && (*p_ == '+' || *p_ == '-')) eneg = *p_++ == '-';
      if (p_ == end_) return fail_at_end();
      if (*p_ < '0' || *p_ > '9') return fail(p_);
      for (; p_ < end_ && *p_ >= '0' && *p_ <= '9'; ++p_)
        if (exp < 100000) exp = exp * 10 + (*p_ - '0');
      if (eneg) exp = -exp;
    }
    if (!is_float && int_only_digits) {
      constexpr std::uint64_t kMaxI = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
      if (neg && mant <= kMaxI + 1) {
        v.type_ = JsonValue::Type::kInteger;
        v.i_ = mant == kMaxI + 1 ? std::numeric_limits<std::int64_t>::min() : -static_cast<std::int64_t>(mant);
        return true;
      }
      if (!neg && mant <= kMaxI) {
        v.type_ = JsonValue::Type::kInteger;
        v.i_ = static_cast<std::int64_t>(mant);
        return true;
      }
      if (!neg) {
        v.type_ = JsonValue::Type::kUnsigned;
        v.u_ = mant;
        return true;
      }
    }
    v.type_ = JsonValue::Type::kFloat;
    static constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const int e10 = exp - frac + dropped;
    if (!overflow && mant <= (std::uint64_t{1} << 53) && e10 >= -22 && e10 <= 22) {
      double d = static_cast<double>(mant);
      d = e10 < 0 ? d / kPow10[-e10] : d * kPow10[e10];
      v.d_ = neg ? -d : d;
      return true;
    }
    // The slow, exact way; strtod needs a terminated copy.
    const std::string digits_copy(start, static_cast<std::size_t>(p_ - start));
    v.d_ = std::strtod(digits_copy.c_str(), nullptr);
    return true;
  }

  // A string starting at the opening quote. Without escapes it stays a view of the text;
  // with them it is decoded into the document's buffer (never longer than its source).
  bool string(JsonValue& v) {
    ++p_;
    const char* start = p_;
    char* out = nullptr;  // set once an escape is seen
    char* out_start = nullptr;
    for (;;) {
      if (p_ == end_) return fail_at_end();
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') break;
      if (c == '\\') {
        if (!out) {
          if (!doc_.unescaped_) {
            doc_.unescaped_.reset(new char[static_cast<std::size_t>(end_ - begin_)]);
            unescaped_used_ = 0;
          }
          out_start = out = doc_.unescaped_.get() + unescaped_used_;
          std::memcpy(out, start, static_cast<std::size_t>(p_ - start));
          out += p_ - start;
        }
        if (!escape(out)) return false;
        continue;
      }
      if (c < 0x20) return fail(p_);
      const char* from = p_;
      if (c < 0x80) {
        ++p_;
      } else if (!utf8()) {
        return false;
      }
      if (out) {
        std::memcpy(out, from, static_cast<std::size_t>(p_ - from));
        out += p_ - from;
      }
    }
    v.type_ = JsonValue::Type::kString;
    const std::size_t len = out ? static_cast<std::size_t>(out - out_start) : static_cast<std::size_t>(p_ - start);
    if (len > std::numeric_limits<std::uint32_t>::max()) return fail(p_);
    v.n_ = static_cast<std::uint32_t>(len);
    v.s_ = out ? out_start : start;
    if (out) unescaped_used_ += len;
    ++p_;  // closing quote
    return true;
  }

  // One UTF-8 sequence (utf8.h); the error points at the byte that breaks it, as nlohmann's does.
  bool utf8() {
    std::size_t bad = 0;
    const std::size_t len =
        utf8_sequence(reinterpret_cast<const unsigned char*>(p_), static_cast<std::size_t>(end_ - p_), bad);
    if (len == 0) return p_ + bad == end_ ? fail_at_end() : fail(p_ + bad);
    p_ += len;
    return true;
  }

  bool hex4(unsigned& cp) {
    cp = 0;
    for (int k = 0; k < 4; ++k, ++p_) {
      if (p_ == end_) return fail_at_end();
      const char h = *p_;
      cp <<= 4;
      if (h >= '0' && h <= '9')
        cp |= static_cast<unsigned>(h - '0');
      else if (h >= 'a' && h <= 'f')
        cp |= static_cast<unsigned>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        cp |= static_cast<unsigned>(h - 'A' + 10);
      else
        return fail(p_);
    }
    return true;
  }

  // After a backslash. A lone surrogate (JSON.stringify writes them as \udXXX) becomes U+FFFD,
  // as it does in any UTF-8 the page's text reaches us through.
  bool escape(char*& out) {
    ++p_;
    if (p_ == end_) return fail_at_end();
    const char e = *p_++;
    switch (e) {
      case '"':
        *out++ = '"';
        return true;
      case '\\':
        *out++ = '\\';
        return true;
      case '/':
        *out++ = '/';
        return true;
      case 'b':
        *out++ = '\b';
        return true;
      case 'f':
        *out++ = '\f';
        return true;
      case 'n':
        *out++ = '\n';
        return true;
      case 'r':
        *out++ = '\r';
        return true;
      case 't':
        *out++ = '\t';
        return true;
      case 'u':
        break;
      default:
        return fail(p_ - 1);
    }
    unsigned cp = 0;
    if (!hex4(cp)) return false;
    if (cp >= 0xD800 && cp <= 0xDBFF && end_ - p_ >= 6 && p_[0] == '\\' && p_[1] == 'u') {
      const char* save = p_;
      p_ += 2;
      unsigned low = 0;
      if (!hex4(low)) return false;
      if (low >= 0xDC00 && low <= 0xDFFF) {
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      } else {
        p_ = save;  // not a pair: the high half alone, the next escape read on its own
        cp = 0xFFFD;
      }
    } else if (cp >= 0xD800 && cp <= 0xDFFF) {
      cp = 0xFFFD;
    }
    // A \uXXXX is 6 source bytes and at most 4 UTF-8 bytes (a pair: 12 for 4), so the decoded
    // string never outgrows its source.
    if (cp < 0x80) {
      *out++ = static_cast<char>(cp);
    } else if (cp < 0x800) {
      *out++ = static_cast<char>(0xC0 | (cp >> 6));
      *out++ = static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      *out++ = static_cast<char>(0xE0 | (cp >> 12));
      *out++ = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      *out++ = static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      *out++ = static_cast<char>(0xF0 | (cp >> 18));
      *out++ = static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      *out++ = static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      *out++ = static_cast<char>(0x80 | (cp & 0x3F));
    }
    return true;
  }

  // Values are trivial: a new block is left uninitialized and the old one copied in whole.
  void reserve(std::size_t capacity) {
    if (capacity <= doc_.capacity_) return;
    std::unique_ptr<JsonValue[]> grown(new JsonValue[capacity]);
    if (doc_.size_) std::memcpy(grown.get(), doc_.values_.get(), doc_.size_ * sizeof(JsonValue));
    doc_.values_ = std::move(grown);
    doc_.capacity_ = capacity;
  }

  void fix_up() {
    JsonValue* base = doc_.values_.get();
    auto fix = [base](JsonValue& v) {
      if (v.type_ == JsonValue::Type::kArray || v.type_ == JsonValue::Type::kObject) v.kids_ = base + v.at_;
    };
    for (std::size_t k = 0; k < doc_.size_; ++k) fix(base[k]);
    fix(doc_.root_);
  }

  const char* begin_;
  const char* p_;
  const char* end_;
  JsonDoc& doc_;
  std::vector<JsonValue> pending_;  // grown in doublings; pending_size_ of it in use
  std::size_t pending_size_ = 0;
  std::size_t unescaped_used_ = 0;
  std::size_t error_at_ = 0;
  bool ran_out_ = false;
};

Result<JsonDoc> JsonDoc::parse(std::string_view text, std::string_view what, std::string_view fix) {
  JsonDoc doc;
  Parser parser(text, doc);
  if (parser.run()) return doc;
  // "truncated?" only when the text ended where more was needed: a bad byte inside it is no sign.
  return make_error(ErrorCode::kMalformedJson, std::string(what) + ": not valid JSON (error at byte " +
                                                   std::to_string(parser.error_at()) + " of " +
                                                   std::to_string(text.size()) +
                                                   (parser.ran_out() ? "; truncated?" : "") + "); " + std::string(fix));
}

}  // namespace athena::compiler
