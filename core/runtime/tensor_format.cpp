#include "runtime/tensor_format.h"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <functional>
#include <limits>
#include <vector>

namespace irscope::runtime {

namespace {

FloatKind floatKindOf(DType t) {
    switch (t) {
        case DType::Float16:
            return FloatKind::Half;
        case DType::Float64:
        case DType::Complex128:
            return FloatKind::Double;
        default:
            return FloatKind::Float;  // Float32, and BFloat16 shown as float32
    }
}

std::string rstrip(std::string s) {
    while (!s.empty() && (s.back() == ' ' || s.back() == '\n' || s.back() == '\t')) {
        s.pop_back();
    }
    return s;
}

std::vector<std::size_t> stridesOf(const Shape& shape) {
    std::vector<std::size_t> strides(shape.rank(), 1);
    for (std::size_t i = shape.rank(); i-- > 1;) {
        strides[i - 1] = strides[i] * static_cast<std::size_t>(shape.dims[i]);
    }
    return strides;
}

// Flat indices of the elements numpy looks at to choose a format: all of them, or for a
// summarised array only the leading and trailing `edge` items along every axis.
std::vector<std::size_t> formatSample(const Tensor& t, bool summarise, std::size_t edge) {
    std::vector<std::size_t> out;
    if (!summarise) {
        out.resize(t.size());
        for (std::size_t i = 0; i < out.size(); ++i) {
            out[i] = i;
        }
        return out;
    }
    const auto strides = stridesOf(t.shape());
    std::function<void(std::size_t, std::size_t)> walk = [&](std::size_t axis, std::size_t off) {
        if (axis == t.rank()) {
            out.push_back(off);
            return;
        }
        const auto len = static_cast<std::size_t>(t.shape().dims[axis]);
        for (std::size_t i = 0; i < len; ++i) {
            if (len > 2 * edge && i == edge) {
                i = len - edge;
            }
            walk(axis + 1, off + i * strides[axis]);
        }
    };
    walk(0, 0);
    return out;
}

// numpy's FloatingFormat: one layout (positional or scientific, padding, digits) shared by
// every element of an array.
class FloatingFormat {
public:
    FloatingFormat(const std::vector<double>& data, FloatKind kind, const NumpyPrintOptions& o)
        : kind_(kind), opt_(o) {
        using FM = NumpyPrintOptions::FloatMode;
        precision_ = o.floatmode == FM::Unique ? -1 : o.precision;
        std::vector<double> finite;
        for (double v : data) {
            if (std::isfinite(v)) {
                finite.push_back(v);
            }
        }
        double maxVal = 0;
        double minVal = std::numeric_limits<double>::infinity();
        bool anyNonZero = false;
        for (double v : finite) {
            if (v != 0) {
                anyNonZero = true;
                maxVal = std::max(maxVal, std::fabs(v));
                minVal = std::min(minVal, std::fabs(v));
            }
        }
        if (anyNonZero) {
            double cutoffMax = 1e8;
            if (o.dtypeAwareExpCutoff) {
                cutoffMax = kind == FloatKind::Half ? 1e3 : kind == FloatKind::Float ? 1e6 : 1e8;
            }
            // max/min is computed in the array's own precision (float16 through float32).
            double ratio = maxVal / minVal;
            if (kind == FloatKind::Float) {
                ratio = static_cast<float>(maxVal) / static_cast<float>(minVal);
            } else if (kind == FloatKind::Half) {
                ratio = roundToKind(static_cast<float>(maxVal) / static_cast<float>(minVal), kind);
            }
            if (maxVal >= cutoffMax || (!o.suppress && (minVal < 0.0001 || ratio > 1000.))) {
                exp_ = true;
            }
        }
        const bool fixed = o.floatmode == FM::Fixed;
        if (finite.empty()) {
            padLeft_ = 0;
            padRight_ = 0;
            trim_ = FloatTrim::Zeros;
            expSize_ = -1;
            unique_ = true;
            minDigits_ = -1;
        } else if (exp_) {
            unique_ = !fixed;
            FloatFormatOptions f;
            f.precision = precision_;
            f.unique = unique_;
            f.trim = fixed ? FloatTrim::Keep : FloatTrim::Zeros;
            f.sign = o.sign == '+';
            std::size_t maxFrac = 0;
            std::size_t maxInt = 0;
            std::size_t maxExp = 0;
            for (double v : finite) {
                const std::string s = formatFloatScientific(v, kind, f);
                const auto e = s.find('e');
                const auto dot = s.find('.');
                maxInt = std::max(maxInt, dot);
                maxFrac = std::max(maxFrac, e - dot - 1);
                maxExp = std::max(maxExp, s.size() - e - 1);
            }
            expSize_ = static_cast<int>(maxExp) - 1;
            trim_ = FloatTrim::Keep;
            precision_ = static_cast<int>(maxFrac);
            minDigits_ = precision_;
            padLeft_ = static_cast<int>(maxInt);
            padRight_ = expSize_ + 2 + precision_;
        } else {
            unique_ = !fixed;
            FloatFormatOptions f;
            f.precision = precision_;
            f.unique = unique_;
            f.trim = fixed ? FloatTrim::Keep : FloatTrim::Zeros;
            f.sign = o.sign == '+';
            std::size_t maxFrac = 0;
            std::size_t maxInt = 0;
            for (double v : finite) {
                const std::string s = formatFloatPositional(v, kind, f);
                const auto dot = s.find('.');
                maxInt = std::max(maxInt, dot);
                maxFrac = std::max(maxFrac, s.size() - dot - 1);
            }
            padLeft_ = static_cast<int>(maxInt);
            padRight_ = static_cast<int>(maxFrac);
            expSize_ = -1;
            if (fixed || o.floatmode == FM::MaxPrecEqual) {
                precision_ = minDigits_ = padRight_;
                trim_ = FloatTrim::Keep;
            } else {
                trim_ = FloatTrim::Zeros;
                minDigits_ = 0;
            }
        }
        if (o.sign == ' ' &&
            std::none_of(finite.begin(), finite.end(), [](double v) { return std::signbit(v); })) {
            ++padLeft_;
        }
        if (finite.size() != data.size()) {
            bool negInf = o.sign != '-';
            for (double v : data) {
                negInf = negInf || (std::isinf(v) && v < 0);
            }
            const int offset = padRight_ + 1;
            padLeft_ = std::max({padLeft_, 3 - offset, 3 + (negInf ? 1 : 0) - offset});
        }
    }

    std::string operator()(double x) const {
        if (!std::isfinite(x)) {
            std::string ret;
            if (std::isnan(x)) {
                ret = opt_.sign == '+' ? "+nan" : "nan";
            } else {
                ret = x < 0 ? "-inf" : (opt_.sign == '+' ? "+inf" : "inf");
            }
            const int pad = padLeft_ + padRight_ + 1 - static_cast<int>(ret.size());
            return std::string(static_cast<std::size_t>(std::max(pad, 0)), ' ') + ret;
        }
        FloatFormatOptions f;
        f.precision = precision_;
        f.minDigits = minDigits_;
        f.unique = unique_;
        f.trim = trim_;
        f.sign = opt_.sign == '+';
        f.padLeft = padLeft_;
        if (exp_) {
            f.expDigits = expSize_;
            return formatFloatScientific(x, kind_, f);
        }
        f.fractional = true;
        f.padRight = padRight_;
        return formatFloatPositional(x, kind_, f);
    }

private:
    FloatKind kind_;
    NumpyPrintOptions opt_;
    int precision_ = 8;
    int minDigits_ = -1;
    bool unique_ = true;
    bool exp_ = false;
    FloatTrim trim_ = FloatTrim::Zeros;
    int padLeft_ = 0;
    int padRight_ = 0;
    int expSize_ = -1;
};

std::string padLeftTo(std::string s, std::size_t width) {
    if (s.size() < width) {
        s.insert(0, width - s.size(), ' ');
    }
    return s;
}

using ElementFn = std::function<std::string(std::size_t)>;

// The element formatter numpy would pick for this tensor (_get_format_function).
ElementFn makeElementFormat(const Tensor& t, const std::vector<std::size_t>& sample,
                            const NumpyPrintOptions& o) {
    const DType dt = t.dtype();
    if (dt == DType::Bool) {
        const std::string trueStr = t.rank() == 0 ? "True" : " True";
        return [&t, trueStr](std::size_t i) { return t.getInt(i) != 0 ? trueStr : "False"; };
    }
    if (ir::isFloat(dt)) {
        std::vector<double> values;
        values.reserve(sample.size());
        for (auto i : sample) {
            values.push_back(t.getDouble(i));
        }
        auto ff = std::make_shared<FloatingFormat>(values, floatKindOf(dt), o);
        return [&t, ff](std::size_t i) { return (*ff)(t.getDouble(i)); };
    }
    if (ir::isComplex(dt)) {
        // numpy's ComplexFloatingFormat: the real parts as one float array, the imaginary
        // parts as another printed with a sign, and the 'j' before the imaginary padding.
        std::vector<double> re, im;
        for (auto i : sample) {
            re.push_back(t.getComplex(i).real());
            im.push_back(t.getComplex(i).imag());
        }
        NumpyPrintOptions signed_ = o;
        signed_.sign = '+';
        auto rf = std::make_shared<FloatingFormat>(re, floatKindOf(dt), o);
        auto imf = std::make_shared<FloatingFormat>(im, floatKindOf(dt), signed_);
        return [&t, rf, imf](std::size_t i) {
            const std::complex<double> z = t.getComplex(i);
            std::string s = (*imf)(z.imag());
            s.insert(rstrip(s).size(), "j");
            return (*rf)(z.real()) + s;
        };
    }
    // Integers: right-aligned to the wider of str(max) and str(min).
    auto text = [&t, dt](std::size_t i) {
        if (dt == DType::UInt64) {
            return std::to_string(t.data<std::uint64_t>()[i]);
        }
        return std::to_string(t.getInt(i));
    };
    std::size_t width = 0;
    if (!sample.empty()) {
        std::size_t maxI = sample[0];
        std::size_t minI = sample[0];
        for (auto i : sample) {
            const bool greater = dt == DType::UInt64
                                     ? t.data<std::uint64_t>()[i] > t.data<std::uint64_t>()[maxI]
                                     : t.getInt(i) > t.getInt(maxI);
            const bool less = dt == DType::UInt64
                                  ? t.data<std::uint64_t>()[i] < t.data<std::uint64_t>()[minI]
                                  : t.getInt(i) < t.getInt(minI);
            maxI = greater ? i : maxI;
            minI = less ? i : minI;
        }
        // numpy 1.x ignores the sign option for integers.
        width = std::max(text(maxI).size(), text(minI).size());
    }
    return [text, width](std::size_t i) { return padLeftTo(text(i), width); };
}

void extendLine(std::string& s, std::string& line, const std::string& word, int width,
                const std::string& nextPrefix) {
    bool wrap = static_cast<int>(line.size() + word.size()) > width;
    if (line.size() <= nextPrefix.size()) {
        wrap = false;  // wrapping would not help
    }
    if (wrap) {
        s += rstrip(line) + "\n";
        line = nextPrefix;
    }
    line += word;
}

// numpy's _formatArray: nested brackets, wrapping rows at the line width with a hanging
// indent, one blank line per extra dimension between blocks, "..." for summarised axes.
class ArrayLayout {
public:
    ArrayLayout(const Tensor& t, ElementFn fmt, std::string separator, bool summarise,
                std::size_t edge)
        : t_(t),
          strides_(stridesOf(t.shape())),
          fmt_(std::move(fmt)),
          sep_(std::move(separator)),
          summarise_(summarise),
          edge_(edge) {}

    std::string render(std::size_t axis, std::size_t offset, const std::string& hanging,
                       int width) const {
        if (axis == t_.rank()) {
            return fmt_(offset);
        }
        const std::string nextHanging = hanging + " ";
        const int nextWidth = width - 1;
        const auto len = static_cast<std::size_t>(t_.shape().dims[axis]);
        const bool showSummary = summarise_ && 2 * edge_ < len;
        const std::size_t leading = showSummary ? edge_ : 0;
        const std::size_t trailing = showSummary ? edge_ : len;
        const std::size_t axesLeft = t_.rank() - axis;
        auto child = [&](std::size_t i) {
            return render(axis + 1, offset + i * strides_[axis], nextHanging, nextWidth);
        };
        std::string s;
        if (axesLeft == 1) {
            const int elemWidth =
                width - static_cast<int>(std::max<std::size_t>(rstrip(sep_).size(), 1));
            std::string line = hanging;
            for (std::size_t i = 0; i < leading; ++i) {
                extendLine(s, line, child(i), elemWidth, hanging);
                line += sep_;
            }
            if (showSummary) {
                extendLine(s, line, "...", elemWidth, hanging);
                line += sep_;
            }
            for (std::size_t i = trailing; i > 1; --i) {
                extendLine(s, line, child(len - i), elemWidth, hanging);
                line += sep_;
            }
            extendLine(s, line, child(len - 1), elemWidth, hanging);
            s += line;
        } else {
            const std::string lineSep = rstrip(sep_) + std::string(axesLeft - 1, '\n');
            for (std::size_t i = 0; i < leading; ++i) {
                s += hanging + child(i) + lineSep;
            }
            if (showSummary) {
                s += hanging + "..." + lineSep;
            }
            for (std::size_t i = trailing; i > 1; --i) {
                s += hanging + child(len - i) + lineSep;
            }
            s += hanging + child(len - 1);
        }
        return "[" + s.substr(hanging.size()) + "]";
    }

private:
    const Tensor& t_;
    std::vector<std::size_t> strides_;
    ElementFn fmt_;
    std::string sep_;
    bool summarise_;
    std::size_t edge_;
};

// numpy's array2string for a non-empty array.
std::string array2string(const Tensor& t, const NumpyPrintOptions& o, const std::string& sep,
                         const std::string& prefix, const std::string& suffix) {
    const bool summarise = t.size() > o.threshold;
    const auto sample = formatSample(t, summarise, o.edgeitems);
    ElementFn fmt = makeElementFormat(t, sample, o);
    ArrayLayout layout(t, std::move(fmt), sep, summarise, o.edgeitems);
    const std::string hanging(prefix.size() + 1, ' ');
    return layout.render(0, 0, hanging, o.linewidth - static_cast<int>(suffix.size()));
}

// ---- MindSpore's TensorStringifier (C++ tensor ToString) -------------------------------

constexpr std::int64_t kMsThreshold = 6;
constexpr std::int64_t kMsThreshold1D = 1000;

class MsStringifier {
public:
    MsStringifier(const Tensor& t, bool useComma) : t_(t), comma_(useComma) {
        const DType dt = t.dtype();
        isBool_ = dt == DType::Bool;
        isFloat_ = ir::isFloat(dt) || ir::isComplex(dt);
        lineFeed_ = isFloat_ ? kMsThreshold * 2 : (isBool_ ? kMsThreshold * 2 : kMsThreshold * 4);
    }

    std::string run() {
        const std::size_t n = t_.size();
        if (n == 0) {
            return "";
        }
        if (n == 1 && t_.rank() == 0) {
            output(0, 0, 1);
            return out_;
        }
        std::int64_t cursor = 0;
        recurse(cursor, 0);
        return placeholders();
    }

private:
    void element(std::size_t i, bool scalar) {
        char buf[64];
        if (ir::isComplex(t_.dtype())) {  // std::complex's stream form, as MindSpore's C++ prints
            const std::complex<double> z = t_.getComplex(i);
            std::snprintf(buf, sizeof buf, "(%g,%g)", z.real(), z.imag());
            out_ += buf;
        } else if (isFloat_) {
            const double v = t_.getDouble(i);
            if (scalar) {
                std::snprintf(buf, sizeof buf, "%g", v);
            } else if (t_.dtype() == DType::Float16) {
                std::snprintf(buf, sizeof buf, "%11.4e", v);
            } else {
                std::snprintf(buf, sizeof buf, "%15.8e", v);
            }
            out_ += buf;
        } else if (isBool_) {
            const bool b = t_.getInt(i) != 0;
            out_ += scalar ? (b ? "True" : "False") : (b ? " True" : "False");
        } else {
            const std::string s = t_.dtype() == DType::UInt64
                                      ? std::to_string(t_.data<std::uint64_t>()[i])
                                      : std::to_string(t_.getInt(i));
            if (!scalar) {
                maxWidth_ = std::max(maxWidth_, s.size());
                out_.append(s.size(), '#');  // replaced by the right padding at the end
            }
            out_ += s;
        }
    }

    void output(std::int64_t cursor, std::int64_t start, std::int64_t end) {
        const bool scalar = t_.rank() == 0 && end - start == 1;
        const auto n = static_cast<std::int64_t>(t_.size());
        for (std::int64_t i = start; i < end && cursor + i < n; ++i) {
            element(static_cast<std::size_t>(cursor + i), scalar);
            if (!scalar && i != end - 1) {
                if (comma_) {
                    out_ += ',';
                }
                out_ += ' ';
            }
            if (!scalar && t_.rank() == 1 && end - start > (kMsThreshold >> 1) &&
                (i + 1) % lineFeed_ == 0) {
                out_ += "\n ";
            }
        }
    }

    void newlineIndent(std::size_t depth) {
        out_ += '\n';
        out_.append(depth + 1, ' ');
    }

    void recurse(std::int64_t& cursor, std::size_t depth) {
        const auto& dims = t_.shape().dims;
        if (depth >= t_.rank()) {
            return;
        }
        out_ += '[';
        const std::int64_t num = dims[depth];
        if (depth == t_.rank() - 1) {
            if ((num > kMsThreshold && t_.rank() > 1) || (num > kMsThreshold1D && t_.rank() == 1)) {
                output(cursor, 0, kMsThreshold >> 1);
                out_ += " ... ";
                output(cursor, num - (kMsThreshold >> 1), num);
            } else {
                output(cursor, 0, num);
            }
            cursor += num;
        } else {
            for (std::int64_t i = 0; i < std::min(kMsThreshold >> 1, num); ++i) {
                if (i > 0) {
                    if (comma_) {
                        out_ += ',';
                    }
                    newlineIndent(depth);
                }
                recurse(cursor, depth + 1);
            }
            if (num > kMsThreshold) {
                if (comma_) {
                    out_ += ',';
                }
                newlineIndent(depth);
                out_ += "...";
                std::int64_t ignored = dims[depth + 1];
                for (std::size_t k = depth + 2; k < t_.rank(); ++k) {
                    ignored *= dims[k];
                }
                cursor += ignored * (num - kMsThreshold);
            }
            if (num > (kMsThreshold >> 1)) {
                const std::int64_t times = std::min(num - (kMsThreshold >> 1), kMsThreshold >> 1);
                for (std::int64_t i = 0; i < times; ++i) {
                    if (comma_ && (i != 0 || num <= kMsThreshold)) {
                        out_ += ',';
                    }
                    newlineIndent(depth);
                    recurse(cursor, depth + 1);
                }
            }
        }
        out_ += ']';
    }

    std::string placeholders() const {
        if (isBool_ || isFloat_) {
            return out_;
        }
        std::string s;
        s.reserve(out_.size());
        for (std::size_t i = 0; i < out_.size();) {
            if (out_[i] != '#') {
                s += out_[i++];
                continue;
            }
            std::size_t j = i;
            while (j < out_.size() && out_[j] == '#') {
                ++j;
            }
            s.append(maxWidth_ - (j - i), ' ');
            i = j;
        }
        return s;
    }

    const Tensor& t_;
    bool comma_;
    bool isBool_ = false;
    bool isFloat_ = false;
    std::int64_t lineFeed_ = 24;
    std::size_t maxWidth_ = 0;
    std::string out_;
};

std::string msHeader(const Tensor& t) {
    return "Tensor(shape=" + formatShapeList(t.shape()) +
           ", dtype=" + std::string(ir::dtypeName(t.dtype())) + ", value=";
}

std::string pyTupleShape(const Shape& s) {
    std::string out = "(";
    for (std::size_t i = 0; i < s.rank(); ++i) {
        out += (i ? ", " : "") + std::to_string(s.dims[i]);
    }
    if (s.rank() == 1) {
        out += ',';
    }
    return out + ")";
}

}  // namespace

std::string numpyDTypeName(DType t) {
    switch (t) {
        case DType::Bool:
            return "bool";
        case DType::Int8:
            return "int8";
        case DType::Int16:
            return "int16";
        case DType::Int32:
            return "int32";
        case DType::Int64:
            return "int64";
        case DType::UInt8:
            return "uint8";
        case DType::UInt16:
            return "uint16";
        case DType::UInt32:
            return "uint32";
        case DType::UInt64:
            return "uint64";
        case DType::Float16:
            return "float16";
        case DType::BFloat16:
            return "bfloat16";
        case DType::Float32:
            return "float32";
        case DType::Float64:
            return "float64";
        case DType::Complex64:
            return "complex64";
        case DType::Complex128:
            return "complex128";
        case DType::String:
            return "str";
    }
    return "?";
}

std::string formatNumpyScalar(const Tensor& t, std::size_t i) {
    const DType dt = t.dtype();
    if (dt == DType::Bool) {
        return t.getInt(i) != 0 ? "True" : "False";
    }
    if (ir::isFloat(dt)) {
        return formatNumpyFloatScalar(t.getDouble(i), floatKindOf(dt));
    }
    if (ir::isComplex(dt)) {  // as Python prints a complex: (1+2j), 2j
        auto part = [&](double v) {
            std::string s = formatNumpyFloatScalar(v, floatKindOf(dt));
            if (s.size() > 2 && s.compare(s.size() - 2, 2, ".0") == 0) {
                s.resize(s.size() - 2);
            }
            return s;
        };
        const std::complex<double> z = t.getComplex(i);
        if (z.real() == 0.0 && !std::signbit(z.real())) {
            return part(z.imag()) + "j";
        }
        std::string im = part(z.imag());
        return "(" + part(z.real()) + (im[0] == '-' ? "" : "+") + im + "j)";
    }
    if (dt == DType::UInt64) {
        return std::to_string(t.data<std::uint64_t>()[i]);
    }
    return std::to_string(t.getInt(i));
}

std::string formatNumpy(const Tensor& t, const NumpyPrintOptions& opt) {
    if (t.rank() == 0) {
        return formatNumpyScalar(t, 0);
    }
    if (t.size() == 0) {
        return "[]";
    }
    return array2string(t, opt, " ", "", "");
}

std::string formatNumpyRepr(const Tensor& t, const NumpyPrintOptions& opt) {
    const std::string prefix = "array(";
    std::string body;
    if (t.size() == 0) {
        body = "[]";
    } else {
        body = array2string(t, opt, ", ", prefix, ")");
    }
    std::vector<std::string> extras;
    if (t.size() == 0 && !(t.rank() == 1 && t.shape().dims[0] == 0)) {
        extras.push_back("shape=" + pyTupleShape(t.shape()));
    }
    const DType dt = t.dtype();
    const bool implied = dt == DType::Int64 || dt == DType::Float64 || dt == DType::Bool ||
                         dt == DType::Complex128;
    if (!implied || t.size() == 0) {
        extras.push_back("dtype=" + numpyDTypeName(dt));
    }
    if (extras.empty()) {
        return prefix + body + ")";
    }
    const std::string arr = prefix + body + ",";
    std::string extra;
    for (std::size_t i = 0; i < extras.size(); ++i) {
        extra += (i ? ", " : "") + extras[i];
    }
    extra += ")";
    const auto nl = arr.rfind('\n');
    const std::size_t lastLine = nl == std::string::npos ? arr.size() : arr.size() - (nl + 1);
    const bool newline = static_cast<int>(lastLine + extra.size() + 1) > opt.linewidth;
    return arr + (newline ? "\n" + std::string(prefix.size(), ' ') : " ") + extra;
}

std::string formatShapeList(const Shape& s) {
    std::string out = "[";
    for (std::size_t i = 0; i < s.rank(); ++i) {
        out += (i ? ", " : "") + std::to_string(s.dims[i]);
    }
    return out + "]";
}

std::string formatTensorRepr(const Tensor& t) {
    return msHeader(t) + (t.rank() > 1 ? "\n" : " ") + MsStringifier(t, true).run() + ")";
}

std::string formatTensorString(const Tensor& t, std::size_t limit) {
    std::string out = msHeader(t);
    if (limit == 0 || t.size() < limit) {
        if (t.rank() > 1) {
            out += '\n';
        }
        out += MsStringifier(t, false).run();
    } else {
        out += "[...]";
    }
    return out + ")";
}

std::string formatGraphPrint(const Tensor& t) {
    return formatTensorString(t, 0);
}

}  // namespace irscope::runtime
