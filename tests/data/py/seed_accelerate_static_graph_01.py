import mindspore as ms
ms.set_context(mode=ms.PYNATIVE_MODE)
