"""What a decision is about: the situation (players, ball, touches, pitch), the settings that
fix the points the Law leaves open, the tracking noise model and the camera."""
