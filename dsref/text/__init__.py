"""Text in English and Chinese: which language the user wants, the gettext catalogs, the glossary and numbers.

Every message and option text of dsref is looked up here (:mod:`.i18n`, catalogs in ``locales/``), terms follow
:mod:`.glossary`, counts are written per language by :mod:`.numbers`, and an option's facts (summary, default,
range) as every face shows them by :mod:`.facts`. It imports only the option tree.
"""
