"""A broadcast still judged from marks on it: the still-marks format (`marks`), the camera
models (`camera`) and their calibration (`calibrate`), the verdict with the pixel error carried
into the margin (`judge`), and, with OpenCV, suggested landmarks and players (`suggest`).
docs/still.md describes the whole."""
