"""What any name a user writes may hold, and when two names look alike: the one rule for the
model and event formats (``kripke``) and the board files (``boards``), which import nothing of
each other, so it sits under both.

:mod:`lookalikes.characters` refuses what a reader cannot see or a terminal obeys (control and
format characters, invisible fillers, odd spaces, styled letters, two scripts in a word) and
shows a name escaped in a message; :mod:`lookalikes.skeleton` gives a name's confusable form
(Unicode's skeleton), equal for two names a reader cannot tell apart.
"""
