class Config:
    size = 4
    half = size / 2
    bad = undefined_thing + 1
