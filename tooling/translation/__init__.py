"""The Chinese edition of the course, built from one source (issue 22).

The English notebooks are the source. Each notebook's Markdown translation lives in
``translations/zh/notebooks/<notebook stem>.md`` (:mod:`.source`: one block per Markdown cell, keyed by
its cell id, with a hash of the English text it translates); :mod:`.build` writes
``notebooks/zh/<same name>.ipynb`` (code cells byte-identical, Markdown replaced, executed by the
course's own runner); :mod:`.check` lists every way the two editions drifted apart, naming notebook
and cell id; :mod:`.catalog` does the same for the message catalog (:mod:`helpers.i18n`). ``python -m tooling.translation build | check | skeleton`` (``make zh``).
"""
