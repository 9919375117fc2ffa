// Abstracts: what type inference knows about a node (type, shape, sometimes the value).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/types.h"
#include "ir/value.h"

namespace irscope::ir {

struct Abstract;
using AbstractPtr = std::shared_ptr<const Abstract>;

struct Abstract {
    enum class Kind : std::uint8_t {
        Tensor,  // <Tensor[Float32], (2, 3)>
        Ref,     // <Ref[Tensor[Int32]], (), ref_key=:param>  (a Parameter's storage)
        Scalar,  // <Int64, NoShape>, <Bool, NoShape>, <Float32, NoShape>, <String, NoShape>
        Tuple,   // <Tuple[Tensor[Float32]*2], TupleShape((2), (2))>
        List,    // <List[...], ListShape(...)>
        Func,    // <Func, NoShape>
        Monad,   // <UMonad, NoShape>, <IOMonad, NoShape>
        None,    // <None, NoShape>
        Type,    // <TypeType, NoShape>: a dtype used as a value
        Opaque,  // text the reader kept verbatim
    };

    Kind kind = Kind::None;
    DType dtype = DType::Float32;  // Tensor, Ref, Scalar
    Shape shape;                   // Tensor, Ref
    std::string refKey;            // Ref: the text after "ref_key=" (":param" in seeds)
    bool valueKnown = false;       // Tensor printed with ", value=..."
    MonadKind monad = MonadKind::U;
    std::vector<AbstractPtr> elements;  // Tuple, List
    std::string text;                   // Opaque
    // The constant this abstract is known to hold (a Scalar's value, a Tuple of constants),
    // as MindSpore's abstracts keep one; type inference specializes graphs on it. Not
    // printed: the printer shows folded constants as value nodes instead.
    ValuePtr value;

    static AbstractPtr tensor(DType t, Shape s, bool valueKnown = false);
    static AbstractPtr ref(DType t, Shape s, std::string refKey);
    static AbstractPtr scalar(DType t);
    // A Scalar (Int/Float/Bool/String value) or other abstract that knows its value.
    static AbstractPtr withValue(AbstractPtr base, ValuePtr v);
    static AbstractPtr tuple(std::vector<AbstractPtr> elems);
    static AbstractPtr list(std::vector<AbstractPtr> elems);
    static AbstractPtr func();
    static AbstractPtr monadAbs(MonadKind m);
    static AbstractPtr noneAbs();
    static AbstractPtr typeAbs();
    static AbstractPtr opaque(std::string text);

    bool equals(const Abstract& o) const;
};

// The abstract's type as MindSpore names it in its IR and its messages: "Tensor[Float32]",
// "Ref[Tensor[Int32]]", "Int64", "Func", "UMonad", "None", "TypeType", an opaque one's text.
// A tuple or list is "Tuple[Tensor[Float32]*2]" / "List[Int64, Bool]" with its elements, or
// just "Tuple" / "List" when `elements` is false.
std::string typeName(const Abstract& a, bool elements = true);

}  // namespace irscope::ir
