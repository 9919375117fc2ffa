// Tensors: shared storage (what makes Load alias a Parameter and Assign visible
// through every alias), independent clones (TensorMove), MindSpore's Cast rules, reshapes,
// conversion to and from IR constants, and IEEE half / bfloat16 storage.
#include <QtTest>

#include <cmath>
#include <limits>

#include "ir/tensor.h"

using namespace irscope::ir;

namespace {

Tensor f32(Shape s, std::vector<double> v) {
    return Tensor::fromDoubles(DType::Float32, s, v);
}

}  // namespace

class TestTensor : public QObject {
    Q_OBJECT

private slots:
    void constructionIsZeroFilled() {
        Tensor t(DType::Int32, Shape{2, 3});
        QCOMPARE(t.size(), std::size_t(6));
        QCOMPARE(t.rank(), std::size_t(2));
        QCOMPARE(t.nbytes(), std::size_t(24));
        for (std::size_t i = 0; i < t.size(); ++i) {
            QCOMPARE(t.getInt(i), std::int64_t(0));
        }
        Tensor scalar(DType::Float64, Shape{});
        QCOMPARE(scalar.size(), std::size_t(1));
        QCOMPARE(scalar.rank(), std::size_t(0));
        Tensor empty(DType::Float32, Shape{0, 4});
        QCOMPARE(empty.size(), std::size_t(0));
        Tensor def;
        QCOMPARE(def.dtype(), DType::Float32);
        QCOMPARE(def.size(), std::size_t(0));
    }

    void dynamicShapesAreRejected() {
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Tensor(DType::Float32, Shape{-1, 3}));
        Shape dyn;
        dyn.dynamicRank = true;
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Tensor(DType::Float32, dyn));
    }

    void copiesShareStorageClonesDoNot() {
        Tensor param = f32({3}, {1, 2, 3});
        Tensor load = param;  // a Load aliases the parameter
        QVERIFY(load.sharesStorageWith(param));
        QCOMPARE(load.storageId(), param.storageId());
        Tensor moved = param.clone();  // TensorMove copies
        QVERIFY(!moved.sharesStorageWith(param));
        param.setDouble(0, 10);
        QCOMPARE(load.getDouble(0), 10.0);
        QCOMPARE(moved.getDouble(0), 1.0);
        moved.setDouble(1, -5);
        QCOMPARE(param.getDouble(1), 2.0);
    }

    void assignWritesInPlaceAndIsSeenByAliases() {
        Tensor param = Tensor::fromInts(DType::Int32, Shape{}, std::vector<std::int64_t>{0});
        Tensor load = param;
        const Tensor snapshot = param.clone();
        param.assignFrom(Tensor::scalar(DType::Int32, 2));
        QCOMPARE(load.getInt(0), std::int64_t(2));
        QCOMPARE(snapshot.getInt(0), std::int64_t(0));
        QCOMPARE(param.storageId(), load.storageId());  // no new buffer
        // Assigning from an alias of itself is a no-op, not a corruption.
        param.assignFrom(load);
        QCOMPARE(param.getInt(0), std::int64_t(2));
        // Same element count through a different shape is allowed; dtype must match.
        Tensor m(DType::Float32, Shape{2, 2});
        m.assignFrom(f32({4}, {1, 2, 3, 4}));
        QCOMPARE(m.getDouble(3), 4.0);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, m.assignFrom(f32({3}, {1, 2, 3})));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 m.assignFrom(Tensor(DType::Float64, Shape{4})));
    }

    void reshapedSharesStorage() {
        Tensor t = f32({2, 3}, {0, 1, 2, 3, 4, 5});
        Tensor r = t.reshaped(Shape{3, 2});
        QVERIFY(r.sharesStorageWith(t));
        QCOMPARE(r.shape(), (Shape{3, 2}));
        r.setDouble(5, 50);
        QCOMPARE(t.getDouble(5), 50.0);
        QCOMPARE(t.shape(), (Shape{2, 3}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, t.reshaped(Shape{4}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, t.reshaped(Shape{-1, 2}));
        Tensor s = Tensor::scalar(DType::Int64, 7).reshaped(Shape{1, 1});
        QCOMPARE(s.getInt(0), std::int64_t(7));
    }

    void castFloatToIntTruncatesTowardZero() {
        Tensor t = Tensor::fromDoubles(DType::Float64, Shape{6},
                                       std::vector<double>{1.7, -1.7, 2.5, -0.5, 0.0, 1e3});
        Tensor i = t.cast(DType::Int32);
        const std::vector<std::int64_t> expected{1, -1, 2, 0, 0, 1000};
        for (std::size_t k = 0; k < expected.size(); ++k) {
            QCOMPARE(i.getInt(k), expected[k]);
        }
        QCOMPARE(i.dtype(), DType::Int32);
        QVERIFY(!i.sharesStorageWith(t));
        // Narrow integer targets keep the low bits (numpy astype on x86).
        Tensor big = Tensor::fromDoubles(DType::Float32, Shape{2}, std::vector<double>{300, -129});
        Tensor i8 = big.cast(DType::Int8);
        QCOMPARE(i8.getInt(0), std::int64_t(44));
        QCOMPARE(i8.getInt(1), std::int64_t(127));
        Tensor u8 = Tensor::fromInts(DType::Int32, Shape{2}, std::vector<std::int64_t>{-1, 256})
                        .cast(DType::UInt8);
        QCOMPARE(u8.getInt(0), std::int64_t(255));
        QCOMPARE(u8.getInt(1), std::int64_t(0));
    }

    void castToBoolIsNonZero() {
        Tensor t = Tensor::fromDoubles(DType::Float32, Shape{5},
                                       std::vector<double>{0.0, -0.0, 0.25, -3, std::nan("")});
        Tensor b = t.cast(DType::Bool);
        const std::vector<std::int64_t> expected{0, 0, 1, 1, 1};
        for (std::size_t k = 0; k < expected.size(); ++k) {
            QCOMPARE(b.getInt(k), expected[k]);
        }
        Tensor ints = Tensor::fromInts(DType::Int64, Shape{3}, std::vector<std::int64_t>{0, 5, -1});
        Tensor bi = ints.cast(DType::Bool);
        QCOMPARE(bi.getInt(0), std::int64_t(0));
        QCOMPARE(bi.getInt(1), std::int64_t(1));
        QCOMPARE(bi.getInt(2), std::int64_t(1));
        // Bool back to float is 0/1.
        Tensor f = bi.cast(DType::Float32);
        QCOMPARE(f.getDouble(2), 1.0);
    }

    void castBetweenFloatsRounds() {
        Tensor d = Tensor::fromDoubles(DType::Float64, Shape{2}, std::vector<double>{0.1, 1e40});
        Tensor f = d.cast(DType::Float32);
        QCOMPARE(f.getDouble(0), static_cast<double>(0.1f));
        QVERIFY(std::isinf(f.getDouble(1)));
        Tensor h = d.cast(DType::Float16);
        QCOMPARE(h.getDouble(0), 0.0999755859375);
        QVERIFY(std::isinf(h.getDouble(1)));
        // Large integers lose precision in float32 exactly as a C conversion does.
        Tensor i = Tensor::fromInts(DType::Int64, Shape{1}, std::vector<std::int64_t>{16777217});
        QCOMPARE(i.cast(DType::Float32).getDouble(0), 16777216.0);
        QCOMPARE(i.cast(DType::Float64).getDouble(0), 16777217.0);
        // Same dtype: an independent copy.
        Tensor c = f.cast(DType::Float32);
        QVERIFY(!c.sharesStorageWith(f));
    }

    void halfAndBFloat16Storage() {
        Tensor h = Tensor::fromDoubles(DType::Float16, Shape{6},
                                       std::vector<double>{1.0, 65504, 65520, 1e-8, 5.96e-8, -2});
        QCOMPARE(h.nbytes(), std::size_t(12));
        QCOMPARE(h.getDouble(0), 1.0);
        QCOMPARE(h.getDouble(1), 65504.0);               // max half
        QVERIFY(std::isinf(h.getDouble(2)));             // rounds past max to inf
        QCOMPARE(h.getDouble(3), 0.0);                   // below half the smallest subnormal
        QCOMPARE(h.getDouble(4), std::ldexp(1.0, -24));  // smallest subnormal
        QCOMPARE(h.getDouble(5), -2.0);
        QCOMPARE(h.data<std::uint16_t>()[0], std::uint16_t(0x3C00));
        QCOMPARE(h.data<std::uint16_t>()[5], std::uint16_t(0xC000));
        // Ties round to even in a single rounding from double: 1 + 2^-11 is halfway.
        Tensor tie = Tensor::scalar(DType::Float16, 1.0 + std::ldexp(1.0, -11));
        QCOMPARE(tie.getDouble(0), 1.0);
        Tensor above = Tensor::scalar(DType::Float16, 1.0 + std::ldexp(1.0, -11) + 1e-12);
        QCOMPARE(above.getDouble(0), 1.0 + std::ldexp(1.0, -10));

        Tensor b =
            Tensor::fromDoubles(DType::BFloat16, Shape{2}, std::vector<double>{1.0, 3.14159});
        QCOMPARE(b.getDouble(0), 1.0);
        QCOMPARE(b.getDouble(1), 3.140625);
        QCOMPARE(b.data<std::uint16_t>()[0], std::uint16_t(0x3F80));
    }

    void getAndSetThroughIntsAndDoubles() {
        Tensor t(DType::Int64, Shape{2});
        t.setInt(0, std::numeric_limits<std::int64_t>::max());
        QCOMPARE(t.getInt(0), std::numeric_limits<std::int64_t>::max());
        t.setDouble(1, -7.9);
        QCOMPARE(t.getInt(1), std::int64_t(-7));
        Tensor u(DType::UInt64, Shape{1});
        u.setDouble(0, 1.8e19);
        QCOMPARE(u.data<std::uint64_t>()[0], std::uint64_t(18000000000000000000ull));
        Tensor f(DType::Float32, Shape{1});
        f.setInt(0, 3);
        QCOMPARE(f.getDouble(0), 3.0);
        QCOMPARE(f.getInt(0), std::int64_t(3));
    }

    void valueDataRoundTrip() {
        for (DType dt : {DType::Bool, DType::Int8, DType::Int16, DType::Int32, DType::Int64,
                         DType::UInt8, DType::UInt16, DType::UInt32, DType::UInt64, DType::Float16,
                         DType::BFloat16, DType::Float32, DType::Float64}) {
            Tensor t = Tensor::fromDoubles(dt, Shape{2, 2}, std::vector<double>{1, 0, 3, 4});
            const TensorData d = t.toValueData();
            QCOMPARE(d.dtype, dt);
            QCOMPARE(d.shape, (Shape{2, 2}));
            QCOMPARE(d.data.size(), t.nbytes());
            for (std::size_t i = 0; i < 4; ++i) {
                QCOMPARE(d.elementAsDouble(i), t.getDouble(i));
            }
            Tensor back = Tensor::fromValueData(d);
            QCOMPARE(back.dtype(), dt);
            QCOMPARE(back.shape(), t.shape());
            QVERIFY(std::memcmp(back.bytes(), t.bytes(), t.nbytes()) == 0);
            QVERIFY(!back.sharesStorageWith(t));
        }
        // A scalar constant made by the IR layer.
        Tensor s = Tensor::fromValueData(irscope::ir::scalarTensor(DType::Int32, 2));
        QCOMPARE(s.rank(), std::size_t(0));
        QCOMPARE(s.getInt(0), std::int64_t(2));
        // An empty tensor round-trips.
        Tensor e(DType::Float32, Shape{0});
        QCOMPARE(Tensor::fromValueData(e.toValueData()).size(), std::size_t(0));
    }

    void valueDataWithoutContentIsRejected() {
        TensorData unknown;
        unknown.dtype = DType::Float32;
        unknown.shape = Shape{3};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Tensor::fromValueData(unknown));
        TensorData wrong = unknown;
        wrong.data.resize(5);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, Tensor::fromValueData(wrong));
    }

    void fromValuesChecksCounts() {
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            Tensor::fromDoubles(DType::Float32, Shape{2}, std::vector<double>{1, 2, 3}));
        QVERIFY_THROWS_EXCEPTION(
            std::invalid_argument,
            Tensor::fromInts(DType::Int32, Shape{2, 2}, std::vector<std::int64_t>{1}));
        Tensor t = Tensor::fromInts(DType::Int8, Shape{3}, std::vector<std::int64_t>{-1, 127, 128});
        QCOMPARE(t.getInt(0), std::int64_t(-1));
        QCOMPARE(t.getInt(2), std::int64_t(-128));  // wraps like a C conversion
    }

    // The executor's memory accounting forgets exactly the buffers a ReleaseLog names: a
    // watched storage is logged when its last alias goes (not before), once per watcher,
    // and a log that is gone is not written to.
    void releaseLogNamesFreedBuffers() {
        auto log = std::make_shared<ReleaseLog>();
        auto other = std::make_shared<ReleaseLog>();
        const void* id = nullptr;
        {
            Tensor a(DType::Float32, Shape{4});
            id = a.storageId();
            a.watchRelease(log);
            a.watchRelease(other);
            Tensor alias = a.reshaped(Shape{2, 2});
            Tensor unwatched(DType::Float32, Shape{4});
            { Tensor gone = std::move(a); }
            QVERIFY(log->take().empty());  // `alias` still holds the buffer
        }
        const std::vector<const void*> freed = log->take();
        QCOMPARE(freed.size(), std::size_t(1));
        QCOMPARE(freed[0], id);
        QVERIFY(log->take().empty());  // taken once
        QCOMPARE(other->take().size(), std::size_t(1));
        std::weak_ptr<ReleaseLog> dropped;
        {
            Tensor b(DType::Float32, Shape{2});
            auto shortLived = std::make_shared<ReleaseLog>();
            dropped = shortLived;
            b.watchRelease(shortLived);
        }
        QVERIFY(dropped.expired());
    }
};

QTEST_APPLESS_MAIN(TestTensor)
#include "test_tensor.moc"
