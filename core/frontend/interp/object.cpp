// Object lifetime: the heap's intrusive list, deferred deletion and teardown.
#include "frontend/interp/object.h"

#include "frontend/interp/objects.h"

namespace irscope::interp {

Object::Object(Type* type, ObjKind kind) : kind_(kind), type_(type) {
    if (type_) {
        static_cast<Object*>(type_)->incRef();
    }
}

Object::~Object() {
    if (heap_) {
        heap_->unlink(this);
    }
    // Normally clearRefs() has run (release() calls it); these are no-ops then.
    setDict(nullptr);
    setType(nullptr);
}

void Object::setDict(DictObject* d) {
    if (d) {
        static_cast<Object*>(d)->incRef();
    }
    if (DictObject* old = std::exchange(dict_, d)) {
        static_cast<Object*>(old)->decRef();
    }
}

void Object::setType(Type* t) {
    if (t) {
        static_cast<Object*>(t)->incRef();
    }
    if (Type* old = std::exchange(type_, t)) {
        static_cast<Object*>(old)->decRef();
    }
}

void Object::clearRefs() {
    setDict(nullptr);
    setType(nullptr);
}

void Object::release() noexcept {
    if (heap_) {
        heap_->enqueue(this);
    } else {
        // Not adopted (construction failed half-way) or orphaned after teardown.
        delete this;
    }
}

// --- Heap -------------------------------------------------------------------------------------

void Heap::link(Object* o) {
    o->heap_ = this;
    o->prev_ = nullptr;
    o->next_ = head_;
    if (head_) {
        head_->prev_ = o;
    }
    head_ = o;
    ++live_;
}

void Heap::unlink(Object* o) {
    if (o->prev_) {
        o->prev_->next_ = o->next_;
    } else {
        head_ = o->next_;
    }
    if (o->next_) {
        o->next_->prev_ = o->prev_;
    }
    o->prev_ = o->next_ = nullptr;
    o->heap_ = nullptr;
    --live_;
}

// Deletes iteratively: a destructor releasing more objects only queues them.
void Heap::enqueue(Object* o) {
    pending_.push_back(o);
    if (draining_) {
        return;
    }
    draining_ = true;
    while (!pending_.empty()) {
        Object* p = pending_.back();
        pending_.pop_back();
        p->incRef();  // keep the count sane while clearRefs releases children
        p->clearRefs();
        p->refs_ = 0;
        delete p;
    }
    draining_ = false;
}

void Heap::clearAll() {
    std::vector<Object*> all;
    all.reserve(live_);
    for (Object* o = head_; o; o = o->next_) {
        all.push_back(o);
    }
    for (Object* o : all) {
        o->incRef();  // pin: nothing is freed while references are dropped
    }
    for (Object* o : all) {
        o->clearRefs();
    }
    for (Object* o : all) {
        o->decRef();  // only objects still held from outside survive
    }
    // Survivors are orphaned: they free themselves when the outside lets go.
    while (head_) {
        unlink(head_);
    }
}

Heap::~Heap() {
    clearAll();
}

}  // namespace irscope::interp
