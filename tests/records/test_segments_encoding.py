"""``segments.npz`` as the store writes it: numpy's npz layout (one deflated ``<key>.npy``
member per array), counts narrowed to int32 only where every value fits."""

from __future__ import annotations

import io
import zipfile

import numpy as np

from evalfw.records.store import encode_segments


def test_arrays_round_trip_through_numpy_with_the_narrowest_safe_integers() -> None:
    rng = np.random.default_rng(5)
    arrays = {
        "c0": rng.integers(0, 60, size=(300, 10)),
        "c1": np.array([[2**31 - 1, -(2**31)], [0, 1]], dtype=np.int64),
        "c2": np.array([[2**31, 0]], dtype=np.int64),  # does not fit: stays int64
        "c3": np.zeros((0, 4), dtype=np.int64),
        "s0": rng.random(300) * 100,
    }
    data = encode_segments(arrays)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        infos = archive.infolist()
        assert [i.filename for i in infos] == [f"{k}.npy" for k in arrays]
        assert {i.compress_type for i in infos} == {zipfile.ZIP_DEFLATED}
    with np.load(io.BytesIO(data), allow_pickle=False) as loaded:
        assert list(loaded.files) == list(arrays)
        assert {k: loaded[k].dtype.str for k in arrays} == {
            "c0": "<i4", "c1": "<i4", "c2": "<i8", "c3": "<i4", "s0": "<f8"}
        for key, arr in arrays.items():
            assert np.array_equal(loaded[key], arr) and loaded[key].shape == arr.shape
    assert encode_segments(arrays) == data  # the same arrays, the same bytes (one sha256)
    with zipfile.ZipFile(io.BytesIO(data)) as archive:  # whenever they are written
        assert {i.date_time for i in archive.infolist()} == {(1980, 1, 1, 0, 0, 0)}
