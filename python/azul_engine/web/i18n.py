"""Every string the web app shows, in English, Russian, Ukrainian, French and Czech.

``LANGUAGES`` lists the codes; ``T[key]`` holds one text per language, in that order, with ``{name}`` fields.
``choose(accept_language)`` picks the language of a browser's preference.  ``engine_text(lang, message)`` words
the engine's refusals that the score sheets meet (``ENGINE``) in the page's language; any other engine message (a
record finding, a move the page's buttons cannot make) is shown as the engine words it, in English.
"""

import re

LANGUAGES = ("en", "ru", "uk", "fr", "cs")
NAMES = {"en": "English", "ru": "Русский", "uk": "Українська", "fr": "Français", "cs": "Čeština"}

T = {
    "title": ("Azul at the table", "Азул за столом", "Азул за столом", "Azul à table", "Azul u stolu"),
    "language": ("Language", "Язык", "Мова", "Langue", "Jazyk"),
    "home": ("Home", "Главная", "Головна", "Accueil", "Domů"),
    "nav_sheet": ("Game score", "Счёт партии", "Рахунок партії", "Feuille de score", "Záznam hry"),
    "nav_check": ("Score check", "Проверка счёта", "Перевірка рахунку", "Vérifier le score", "Kontrola skóre"),
    "nav_play": ("Play", "Играть", "Грати", "Jouer", "Hrát"),
    "nav_replay": ("Replay", "Просмотр записи", "Перегляд запису", "Revoir une partie", "Přehrát záznam"),
    "intro": ("Score a game at a real table round by round, check a final score, play the bots or replay a "
              "recorded game. Every rule is computed by the engine on this computer.",
              "Считайте очки настоящей партии раунд за раундом, проверяйте итоговый счёт, играйте с ботами "
              "или просматривайте записанные партии. Все правила считает движок на этом компьютере.",
              "Рахуйте очки справжньої партії раунд за раундом, перевіряйте підсумковий рахунок, грайте з "
              "ботами або переглядайте записані партії. Усі правила обчислює рушій на цьому комп'ютері.",
              "Comptez les points d'une vraie partie manche par manche, vérifiez un score final, jouez contre "
              "les robots ou revoyez une partie enregistrée. Toutes les règles sont calculées par le moteur sur "
              "cet ordinateur.",
              "Zapisujte skutečnou hru kolo po kole, kontrolujte konečné skóre, hrajte proti botům nebo si "
              "přehrajte zaznamenanou hru. Všechna pravidla počítá engine na tomto počítači."),
    "variant": ("Variant", "Вариант", "Варіант", "Variante", "Varianta"),
    "classic": ("Classic (coloured wall)", "Классика (цветная стена)", "Класика (кольорова стіна)",
                "Classique (mur coloré)", "Klasická (barevná zeď)"),
    "grey": ("Grey wall", "Серая стена", "Сіра стіна", "Mur gris", "Šedá zeď"),
    "players": ("Players", "Игроки", "Гравці", "Joueurs", "Hráči"),
    "player_n": ("Player {n}", "Игрок {n}", "Гравець {n}", "Joueur {n}", "Hráč {n}"),
    "start": ("Start", "Начать", "Почати", "Commencer", "Začít"),
    "new_sheet": ("New score sheet", "Новый лист счёта", "Новий аркуш рахунку", "Nouvelle feuille",
                  "Nový záznam"),
    "round_n": ("Round {n}", "Раунд {n}", "Раунд {n}", "Manche {n}", "Kolo {n}"),
    "grey_help": ("Grey wall: choose the colour, then tap the column where the tile went. A completed pattern line "
                  "that fits in no empty cell of its row (every empty cell's column already holds its colour, "
                  "tiles placed earlier this round included) is not placed: all its tiles go to the floor, so "
                  "add them to the floor tiles (at most 7) and tap nothing in that row.",
                  "Серая стена: выберите цвет, затем нажмите столбец, куда легла плитка. Заполненная линия, "
                  "которой нет места ни в одной пустой клетке её ряда (в столбце каждой пустой клетки её цвет "
                  "уже есть, считая плитки этого раунда), не выкладывается: все её плитки уходят на пол — "
                  "прибавьте их к плиткам на полу (не больше 7) и ничего не нажимайте в этом ряду.",
                  "Сіра стіна: виберіть колір, потім натисніть стовпець, куди лягла плитка. Заповнена лінія, якій "
                  "немає місця в жодній порожній клітинці її ряду (у стовпці кожної порожньої клітинки її колір "
                  "уже є, враховуючи плитки цього раунду), не викладається: усі її плитки йдуть на підлогу — "
                  "додайте їх до плиток на підлозі (не більше 7) і нічого не натискайте в цьому ряду.",
                  "Mur gris : choisissez la couleur, puis touchez la colonne où la tuile a été posée. Une ligne "
                  "complète qui ne va dans aucune case vide de sa rangée (la colonne de chaque case vide a déjà "
                  "sa couleur, tuiles de cette manche comprises) n'est pas posée : toutes ses tuiles vont au "
                  "plancher ; ajoutez-les aux tuiles du plancher (7 au plus) et ne touchez rien dans cette "
                  "rangée.",
                  "Šedá zeď: vyberte barvu a pak klepněte na sloupec, kam dlaždice šla. Dokončená řada, která se "
                  "nevejde do žádného prázdného políčka své řady (sloupec každého prázdného políčka už její barvu "
                  "má, včetně dlaždic tohoto kola), se nepokládá: všechny její dlaždice jdou na podlahu, "
                  "přičtěte je k dlaždicím na podlaze (nejvýše 7) a v té řadě nic neklepejte."),
    "sheet_help": ("Tap the wall cell of each tile placed this round, set the floor tiles and who took the "
                   "first-player marker, then score the round.",
                   "Нажмите клетку стены для каждой выложенной в этом раунде плитки, укажите плитки на полу и "
                   "кто взял жетон первого игрока, затем подсчитайте раунд.",
                   "Натисніть клітинку стіни для кожної викладеної в цьому раунді плитки, вкажіть плитки на "
                   "підлозі й хто взяв жетон першого гравця, потім порахуйте раунд.",
                   "Touchez la case du mur de chaque tuile posée cette manche, indiquez les tuiles au plancher "
                   "et qui a pris le marqueur premier joueur, puis comptez la manche.",
                   "Klepněte na políčko zdi u každé dlaždice položené v tomto kole, zadejte dlaždice na podlaze "
                   "a kdo vzal žeton prvního hráče, pak kolo sečtěte."),
    "grey_colour": ("Colour of the next tile (grey wall)", "Цвет следующей плитки (серая стена)",
                    "Колір наступної плитки (сіра стіна)", "Couleur de la prochaine tuile (mur gris)",
                    "Barva další dlaždice (šedá zeď)"),
    "floor": ("Floor", "Пол", "Підлога", "Plancher", "Podlaha"),
    "floor_tiles": ("floor tiles", "плиток на полу", "плиток на підлозі", "tuiles au plancher",
                    "dlaždic na podlaze"),
    "items": ("floor items: {n} (marker included)", "предметов: {n} (с жетоном)", "предметів: {n} (з жетоном)",
              "éléments : {n} (marqueur compris)", "položek: {n} (včetně žetonu)"),
    "floor_full": ("{name}: the floor holds more than {n} items", "{name}: на полу больше {n} предметов не помещается",
                   "{name}: на підлозі більше {n} предметів не вміщується",
                   "{name} : le plancher ne tient pas plus de {n} éléments",
                   "{name}: na podlahu se nevejde víc než {n} položek"),
    "confirm_new_sheet": ("Start a new score sheet? This one is gone unless you have downloaded it.",
                          "Начать новый лист? Этот пропадёт, если вы его не скачали.",
                          "Почати новий аркуш? Цей зникне, якщо ви його не завантажили.",
                          "Commencer une nouvelle feuille ? Celle-ci sera perdue si vous ne l'avez pas "
                          "téléchargée.",
                          "Začít nový záznam? Tento zmizí, pokud jste si ho nestáhli."),
    "record_file": ("Record file (.jsonl)", "Файл записей (.jsonl)", "Файл записів (.jsonl)",
                    "Fichier de parties (.jsonl)", "Soubor záznamů (.jsonl)"),
    "one_fewer": ("{what}: one fewer", "{what}: на одну меньше", "{what}: на одну менше", "{what} : un de moins",
                  "{what}: o jednu méně"),
    "one_more": ("{what}: one more", "{what}: на одну больше", "{what}: на одну більше", "{what} : un de plus",
                 "{what}: o jednu více"),
    "record_progress": ("Looking for deals and drafts that give this sheet: {best} of {rounds} rounds matched so far, "
                        "{tries} tries, {t} s of at most {s} s…",
                        "Ищем раздачи и ходы, которые дают этот лист: совпало раундов — {best} из {rounds}, "
                        "попыток — {tries}, {t} с из не более чем {s} с…",
                        "Шукаємо роздачі й ходи, які дають цей аркуш: збіглося раундів — {best} з {rounds}, "
                        "спроб — {tries}, {t} с з не більше ніж {s} с…",
                        "Recherche des tirages et des coups qui donnent cette feuille : {best} manche(s) sur {rounds} "
                        "trouvée(s), {tries} essai(s), {t} s sur {s} s au plus…",
                        "Hledáme rozdání a tahy, které dávají tento záznam: shoda v {best} z {rounds} kol, "
                        "{tries} pokusů, {t} s z nejvýše {s} s…"),
    "record_found": ("Found: the download begins.", "Найдено: загрузка начинается.", "Знайдено: завантаження починається.",
                     "Trouvé : le téléchargement commence.", "Nalezeno: stahování začíná."),
    "no_record_sheet": ("There is no finished classic or grey score sheet to make a record of.",
                        "Нет законченного листа счёта (классика или серая стена), по которому можно составить запись.",
                        "Немає завершеного аркуша рахунку (класика або сіра стіна), з якого можна скласти запис.",
                        "Aucune feuille de score terminée (classique ou mur gris) dont faire un enregistrement.",
                        "Není dokončený záznam skóre (klasika nebo šedá zeď), ze kterého lze udělat záznam hry."),
    "record_wait": ("Looking for a game that gives this sheet (up to {s} s)…",
                    "Ищем партию, которая даёт этот лист (до {s} с)…",
                    "Шукаємо партію, яка дає цей аркуш (до {s} с)…",
                    "Recherche d'une partie qui donne cette feuille (jusqu'à {s} s)…",
                    "Hledáme hru, která dává tento záznam (nejvýše {s} s)…"),
    "e_wall_letter": ("wall: row {row}: '{ch}' is not a colour letter (B Y R K W) or '.' for an empty cell",
                      "стена: ряд {row}: «{ch}» — не буква цвета (B Y R K W; K — чёрный) и не «.» для пустой "
                      "клетки",
                      "стіна: ряд {row}: «{ch}» — не літера кольору (B Y R K W; K — чорний) і не «.» для "
                      "порожньої клітинки",
                      "mur : rangée {row} : « {ch} » n'est ni une lettre de couleur (B Y R K W ; K pour noir) ni "
                      "« . » pour une case vide",
                      "zeď: řada {row}: „{ch}“ není písmeno barvy (B Y R K W; K je černá) ani „.“ pro prázdné "
                      "políčko"),
    "e_wall_rows": ("wall: {n} rows, not 5 (one row per line, or rows separated by '/')",
                    "стена: рядов {n}, а нужно 5 (по ряду в строке или ряды через «/»)",
                    "стіна: рядів {n}, а треба 5 (по ряду в рядку або ряди через «/»)",
                    "mur : {n} rangées au lieu de 5 (une rangée par ligne, ou séparées par « / »)",
                    "zeď: {n} řad místo 5 (jedna řada na řádek, nebo řady oddělené „/“)"),
    "e_wall_cells": ("wall: row {row} has {n} cells, not 5: '{cells}'",
                     "стена: в ряду {row} клеток {n}, а нужно 5: «{cells}»",
                     "стіна: у ряду {row} клітинок {n}, а треба 5: «{cells}»",
                     "mur : la rangée {row} a {n} cases au lieu de 5 : « {cells} »",
                     "zeď: řada {row} má {n} políček místo 5: „{cells}“"),
    "e_wall_row_repeats": ("wall: impossible wall: row {row} repeats a colour",
                           "стена: невозможная стена: в ряду {row} цвет повторяется",
                           "стіна: неможлива стіна: у ряду {row} колір повторюється",
                           "mur : mur impossible : une couleur se répète dans la rangée {row}",
                           "zeď: nemožná zeď: v řadě {row} se opakuje barva"),
    "e_wall_col_repeats": ("wall: impossible wall: column {col} repeats a colour",
                           "стена: невозможная стена: в столбце {col} цвет повторяется",
                           "стіна: неможлива стіна: у стовпці {col} колір повторюється",
                           "mur : mur impossible : une couleur se répète dans la colonne {col}",
                           "zeď: nemožná zeď: ve sloupci {col} se opakuje barva"),
    "colour_legend": ("B blue, Y yellow, R red, K black, W white, . an empty cell",
                      "B синий, Y жёлтый, R красный, K чёрный, W белый, . пустая клетка",
                      "B синій, Y жовтий, R червоний, K чорний, W білий, . порожня клітинка",
                      "B bleu, Y jaune, R rouge, K noir, W blanc, . case vide",
                      "B modrá, Y žlutá, R červená, K černá, W bílá, . prázdné políčko"),
    "needs_js": ("This page needs JavaScript: turn it on to enter, check and play games here.",
                 "Этой странице нужен JavaScript: включите его, чтобы вводить, проверять и играть партии.",
                 "Цій сторінці потрібен JavaScript: увімкніть його, щоб вводити, перевіряти й грати партії.",
                 "Cette page a besoin de JavaScript : activez-le pour saisir, vérifier et jouer des parties.",
                 "Tato stránka potřebuje JavaScript: zapněte ho, abyste tu mohli zadávat, kontrolovat a hrát hry."),
    "marker": ("First-player marker", "Жетон первого игрока", "Жетон першого гравця", "Marqueur premier joueur",
               "Žeton prvního hráče"),
    "score_round": ("Score the round", "Подсчитать раунд", "Порахувати раунд", "Compter la manche",
                    "Sečíst kolo"),
    "undo_round": ("Take back the last round", "Отменить последний раунд", "Скасувати останній раунд",
                   "Annuler la dernière manche", "Vrátit poslední kolo"),
    "score": ("Score", "Счёт", "Рахунок", "Score", "Skóre"),
    "tiles": ("Tiles", "Плитки", "Плитки", "Tuiles", "Dlaždice"),
    "round": ("Round", "Раунд", "Раунд", "Manche", "Kolo"),
    "total": ("Total", "Итого", "Разом", "Total", "Celkem"),
    "clamped": ("clamped at 0", "не ниже 0", "не нижче 0", "plafonné à 0", "nejméně 0"),
    "across": ("{n} across", "{n} по горизонтали", "{n} по горизонталі", "{n} en ligne", "{n} vodorovně"),
    "down": ("{n} down", "{n} по вертикали", "{n} по вертикалі", "{n} en colonne", "{n} svisle"),
    "alone": ("alone", "одна", "одна", "seule", "samostatně"),
    "row_n": ("row {n}", "ряд {n}", "ряд {n}", "ligne {n}", "řada {n}"),
    "preview": ("This round so far", "Этот раунд сейчас", "Цей раунд зараз", "Cette manche pour l'instant",
                "Toto kolo zatím"),
    "choose_marker": ("Choose who took the first-player marker.", "Укажите, кто взял жетон первого игрока.",
                      "Вкажіть, хто взяв жетон першого гравця.", "Indiquez qui a pris le marqueur premier joueur.",
                      "Zvolte, kdo vzal žeton prvního hráče."),
    "game_over": ("Game over", "Игра окончена", "Гру завершено", "Partie terminée", "Konec hry"),
    "bonuses": ("End bonuses", "Бонусы в конце", "Бонуси наприкінці", "Bonus de fin", "Bonusy na konci"),
    "rows": ("complete rows", "полные ряды", "повні ряди", "lignes complètes", "úplné řady"),
    "columns": ("complete columns", "полные столбцы", "повні стовпці", "colonnes complètes", "úplné sloupce"),
    "colours": ("complete colours", "полные цвета", "повні кольори", "couleurs complètes", "úplné barvy"),
    "before_bonus": ("before bonuses", "до бонусов", "до бонусів", "avant bonus", "před bonusy"),
    "final": ("Final score", "Итоговый счёт", "Підсумковий рахунок", "Score final", "Konečné skóre"),
    "winners": ("Winner", "Победитель", "Переможець", "Gagnant", "Vítěz"),
    "tiebreak": ("tied on points; more complete rows wins", "ничья по очкам; побеждает больше полных рядов",
                 "нічия за очками; перемагає більше повних рядів", "égalité de points ; le plus de lignes "
                 "complètes gagne", "shoda bodů; vyhrává více úplných řad"),
    "shared": ("the win is shared", "победа разделена", "перемогу поділено", "victoire partagée",
               "vítězství se dělí"),
    "download": ("Download the game record (.jsonl)", "Скачать запись партии (.jsonl)",
                 "Завантажити запис партії (.jsonl)", "Télécharger la partie (.jsonl)",
                 "Stáhnout záznam hry (.jsonl)"),
    "download_sheet": ("Download the score sheet (JSON)", "Скачать лист счёта (JSON)",
                       "Завантажити аркуш рахунку (JSON)", "Télécharger la feuille (JSON)",
                       "Stáhnout záznam skóre (JSON)"),
    "blue": ("blue", "синий", "синій", "bleu", "modrá"),
    "yellow": ("yellow", "жёлтый", "жовтий", "jaune", "žlutá"),
    "red": ("red", "красный", "червоний", "rouge", "červená"),
    "black": ("black", "чёрный", "чорний", "noir", "černá"),
    "white": ("white", "белый", "білий", "blanc", "bílá"),
    "purple": ("purple", "фиолетовый", "фіолетовий", "violet", "fialová"),
    "green": ("green", "зелёный", "зелений", "vert", "zelená"),
    "orange": ("orange", "оранжевый", "помаранчевий", "orange", "oranžová"),
    "pavilion": ("Summer Pavilion", "Летний павильон", "Літній павільйон", "Pavillon d'été", "Letní pavilon"),
    "colon": ("{x}:", "{x}:", "{x}:", "{x} :", "{x}:"),
    "pv_help": ("Tap the space of each tile placed this round, in the order the player placed them (a tile scores "
                "the tiles already joined to it, so the order counts: each new tile shows its number), with the "
                "wild tiles used, chosen beside that board; the number of the space is the tiles paid. Tap a tile "
                "again to take it back. Set who took the start token and with how many tiles, and each player's "
                "pass, then score the round.",
                "Нажимайте поля плиток, выложенных в этом раунде, в том порядке, в каком игрок их выкладывал "
                "(плитка приносит очки за уже примыкающие к ней плитки, поэтому порядок важен: у каждой новой "
                "плитки виден её номер), указав использованные джокеры рядом с этим планшетом; номер поля — число "
                "оплаченных плиток. Повторное нажатие убирает плитку. Укажите, кто взял жетон первого игрока и "
                "сколько плиток, и пас каждого игрока, затем подсчитайте раунд.",
                "Натискайте поля плиток, викладених у цьому раунді, у тому порядку, в якому гравець їх викладав "
                "(плитка приносить очки за вже суміжні з нею плитки, тому порядок важливий: у кожної нової плитки "
                "видно її номер), вказавши використані джокери поруч із цим планшетом; номер поля — кількість "
                "оплачених плиток. Повторне натискання прибирає плитку. Вкажіть, хто взяв жетон першого гравця і "
                "скільки плиток, і пас кожного гравця, потім порахуйте раунд.",
                "Touchez l'emplacement de chaque tuile posée cette manche, dans l'ordre où le joueur les a posées "
                "(une tuile marque les tuiles déjà reliées à elle : l'ordre compte, et chaque nouvelle tuile "
                "montre son numéro), avec les jokers utilisés, choisis à côté de ce plateau ; le numéro de "
                "l'emplacement est le nombre de tuiles payées. Touchez une tuile à nouveau pour la retirer. "
                "Indiquez qui a pris le marqueur premier joueur et avec combien de tuiles, et la passe de chaque "
                "joueur, puis comptez la manche.",
                "Klepejte na pole dlaždic položených v tomto kole v pořadí, v jakém je hráč pokládal (dlaždice "
                "boduje za dlaždice, které k ní už přiléhají, takže na pořadí záleží: každá nová dlaždice ukazuje "
                "své číslo), s použitými žolíky zvolenými u téže desky; číslo pole je počet zaplacených dlaždic. "
                "Dalším klepnutím dlaždici vrátíte. Zadejte, kdo vzal žeton prvního hráče a s kolika dlaždicemi, "
                "a pas každého hráče, pak kolo sečtěte."),
    "placed_nth": ("placed this round as number {n}", "выложена {n}-й в этом раунде", "викладена {n}-ю в цьому раунді",
                   "posée en n° {n} cette manche", "položena jako {n}. v tomto kole"),
    "wild_is": ("Wild colour this round: {c}", "Джокер в этом раунде: {c}", "Джокер у цьому раунді: {c}",
                "Couleur joker de la manche : {c}", "Žolíková barva kola: {c}"),
    "centre_colour": ("Colour (centre star)", "Цвет (центральная звезда)", "Колір (центральна зірка)",
                      "Couleur (étoile centrale)", "Barva (střední hvězda)"),
    "wild_tiles": ("wild tiles used", "использовано джокеров", "використано джокерів", "jokers utilisés",
                   "použité žolíky"),
    "with_wilds": ("with {n} wild", "с джокерами: {n}", "з джокерами: {n}", "avec {n} joker(s)",
                   "se žolíky: {n}"),
    "start_token": ("Start token", "Жетон первого игрока", "Жетон першого гравця", "Marqueur premier joueur",
                    "Žeton prvního hráče"),
    "token_tiles": ("tiles taken with it", "плиток взято с ним", "плиток узято з ним", "tuiles prises avec",
                    "dlaždic vzatých s ním"),
    "pass": ("Pass", "Пас", "Пас", "Passe", "Pas"),
    "kept": ("kept", "оставлено", "залишено", "gardées", "ponecháno"),
    "discarded": ("discarded", "сброшено", "скинуто", "défaussées", "odhozeno"),
    "bonus_tiles": ("bonus tiles: {n}", "бонусных плиток: {n}", "бонусних плиток: {n}", "tuiles bonus : {n}",
                    "bonusové dlaždice: {n}"),
    "end_bonus": ("end bonuses", "бонусы в конце", "бонуси наприкінці", "bonus de fin", "bonusy na konci"),
    "kept_penalty": ("kept tiles", "оставленные плитки", "залишені плитки", "tuiles gardées",
                     "ponechané dlaždice"),
    "check_wall": ("Final wall: five rows of B Y R K W and dots", "Итоговая стена: пять рядов из B Y R K W и точек",
                   "Підсумкова стіна: п'ять рядів з B Y R K W і крапок",
                   "Mur final : cinq lignes de B Y R K W et de points",
                   "Konečná zeď: pět řad z B Y R K W a teček"),
    "check_score": ("Score before bonuses", "Счёт до бонусов", "Рахунок до бонусів", "Score avant bonus",
                    "Skóre před bonusy"),
    "check": ("Check", "Проверить", "Перевірити", "Vérifier", "Zkontrolovat"),
    "any_wall": ("any wall (no colour pattern)", "любая стена (без цветного узора)",
                 "будь-яка стіна (без кольорового візерунка)", "tout mur (sans motif de couleur)",
                 "libovolná zeď (bez barevného vzoru)"),
    "check_classic": ("Classic or grey wall", "Классика или серая стена", "Класика або сіра стіна",
                      "Mur classique ou gris", "Klasická nebo šedá zeď"),
    "check_board": ("Final board: seven rows, one a star in this order, each its six spaces (1 to 6) as P G O Y B R "
                    "and dots", "Итоговый планшет: семь рядов, по звезде в этом порядке, в каждом шесть полей (1-6) "
                    "из P G O Y B R и точек", "Підсумковий планшет: сім рядів, по зірці в цьому порядку, у кожному "
                    "шість полів (1-6) з P G O Y B R і крапок", "Plateau final : sept lignes, une par étoile dans "
                    "cet ordre, chacune ses six cases (1 à 6) en P G O Y B R et points", "Konečná deska: sedm řad, "
                    "po jedné hvězdě v tomto pořadí, každá svých šest polí (1 až 6) z P G O Y B R a teček"),
    "board_legend": ("P purple, G green, O orange, Y yellow, B blue, R red, . an empty space",
                     "P фиолетовый, G зелёный, O оранжевый, Y жёлтый, B синий, R красный, . пустое поле",
                     "P фіолетовий, G зелений, O помаранчевий, Y жовтий, B синій, R червоний, . порожнє поле",
                     "P violet, G vert, O orange, Y jaune, B bleu, R rouge, . case vide",
                     "P fialová, G zelená, O oranžová, Y žlutá, B modrá, R červená, . prázdné pole"),
    "pv_score": ("Score after round {n}'s passes", "Счёт после пасов {n}-го раунда", "Рахунок після пасів {n}-го раунду",
                 "Score après les passes de la manche {n}", "Skóre po pasech {n}. kola"),
    "kept_tiles": ("Tiles kept at the last pass", "Плиток оставлено при последнем пасе",
                   "Плиток залишено під час останнього пасу", "Tuiles gardées à la dernière passe",
                   "Dlaždice ponechané při posledním pasu"),
    "stars_done": ("complete stars", "полные звёзды", "повні зірки", "étoiles complètes", "úplné hvězdy"),
    "numbers_done": ("numbers covered on every star", "числа, закрытые на всех звёздах",
                     "числа, закриті на всіх зірках", "nombres couverts sur toutes les étoiles",
                     "čísla zakrytá na všech hvězdách"),
    "none": ("none", "нет", "немає", "aucun", "žádné"),
    "e_board_rows": ("board: {n} rows, not 7 (one row per star, O R B Y G P C, each its six spaces; or rows separated "
                     "by '/')",
                     "планшет: рядов {n}, а нужно 7 (по ряду на звезду, O R B Y G P C, в каждом шесть полей; или ряды "
                     "через «/»)",
                     "планшет: рядів {n}, а треба 7 (по ряду на зірку, O R B Y G P C, у кожному шість полів; або "
                     "ряди через «/»)",
                     "plateau : {n} lignes au lieu de 7 (une ligne par étoile, O R B Y G P C, chacune ses six "
                     "cases ; ou séparées par « / »)",
                     "deska: {n} řad místo 7 (jedna řada na hvězdu, O R B Y G P C, každá svých šest polí; nebo řady "
                     "oddělené „/“)"),
    "e_board_letter": ("board: row {row} ({star}): '{ch}' is not a colour letter (P G O Y B R) or '.' for an empty "
                       "space",
                       "планшет: ряд {row} ({star}): «{ch}» — не буква цвета (P G O Y B R) и не «.» для пустого поля",
                       "планшет: ряд {row} ({star}): «{ch}» — не літера кольору (P G O Y B R) і не «.» для "
                       "порожнього поля",
                       "plateau : ligne {row} ({star}) : « {ch} » n'est ni une lettre de couleur (P G O Y B R) ni "
                       "« . » pour une case vide",
                       "deska: řada {row} ({star}): „{ch}“ není písmeno barvy (P G O Y B R) ani „.“ pro prázdné "
                       "pole"),
    "e_board_cells": ("board: row {row} ({star}) has {n} spaces, not 6: '{cells}'",
                      "планшет: в ряду {row} ({star}) полей {n}, а нужно 6: «{cells}»",
                      "планшет: у ряду {row} ({star}) полів {n}, а треба 6: «{cells}»",
                      "plateau : la ligne {row} ({star}) a {n} cases au lieu de 6 : « {cells} »",
                      "deska: řada {row} ({star}) má {n} polí místo 6: „{cells}“"),
    "e_board_star": ("board: the {star} cannot hold {colour}", "планшет: {star} не может содержать «{colour}»",
                     "планшет: {star} не може містити «{colour}»", "plateau : {star} ne peut pas contenir de "
                     "« {colour} »", "deska: {star} nemůže obsahovat barvu „{colour}“"),
    "e_board_twice": ("board: the centre star holds {colour} twice", "планшет: на центральной звезде дважды "
                      "«{colour}»", "планшет: на центральній зірці двічі «{colour}»",
                      "plateau : l'étoile centrale a deux fois « {colour} »",
                      "deska: střední hvězda má barvu „{colour}“ dvakrát"),
    "upload_record": ("Or upload a game record (.jsonl)", "Или загрузите запись партии (.jsonl)",
                      "Або завантажте запис партії (.jsonl)", "Ou envoyez une partie enregistrée (.jsonl)",
                      "Nebo nahrajte záznam hry (.jsonl)"),
    "upload": ("Upload", "Загрузить", "Завантажити", "Envoyer", "Nahrát"),
    "agrees": ("agrees with the rules", "соответствует правилам", "відповідає правилам",
               "conforme aux règles", "odpovídá pravidlům"),
    "f_line": ("line {n}", "строка {n}", "рядок {n}", "ligne {n}", "řádek {n}"),
    "f_round": ("round {n}", "раунд {n}", "раунд {n}", "manche {n}", "kolo {n}"),
    "f_move": ("move {m}", "ход {m}", "хід {m}", "coup {m}", "tah {m}"),
    "f_score": ("{who}: the record says {rec} after the round, the rules give {ok}",
                "{who}: в записи {rec} после раунда, по правилам {ok}",
                "{who}: у записі {rec} після раунду, за правилами {ok}",
                "{who} : l'enregistrement dit {rec} après la manche, les règles donnent {ok}",
                "{who}: záznam uvádí po kole {rec}, podle pravidel {ok}"),
    "f_final": ("{who}: the record says a final score of {rec}, the rules give {ok}",
                "{who}: в записи итоговый счёт {rec}, по правилам {ok}",
                "{who}: у записі підсумковий рахунок {rec}, за правилами {ok}",
                "{who} : l'enregistrement dit un score final de {rec}, les règles donnent {ok}",
                "{who}: záznam uvádí konečné skóre {rec}, podle pravidel {ok}"),
    "f_winners": ("winners: the record says {rec}, the rules give {ok}",
                  "победители: в записи {rec}, по правилам {ok}",
                  "переможці: у записі {rec}, за правилами {ok}",
                  "gagnants : l'enregistrement dit {rec}, les règles donnent {ok}",
                  "vítězové: záznam uvádí {rec}, podle pravidel {ok}"),
    "findings": ("Findings", "Замечания", "Зауваження", "Constats", "Nálezy"),
    "record_n": ("Record {n}", "Запись {n}", "Запис {n}", "Partie {n}", "Záznam {n}"),
    "summary": ("{a} records agree, {d} disagree", "записей без ошибок: {a}, с ошибками: {d}",
                "записів без помилок: {a}, з помилками: {d}", "{a} parties conformes, {d} non conformes",
                "{a} záznamů v pořádku, {d} s chybami"),
    "seat_n": ("Seat {n}", "Место {n}", "Місце {n}", "Place {n}", "Místo {n}"),
    "human": ("Person", "Человек", "Людина", "Personne", "Člověk"),
    "bot_random": ("Random bot", "Случайный бот", "Випадковий бот", "Robot au hasard", "Náhodný bot"),
    "bot_greedy": ("Greedy bot", "Жадный бот", "Жадібний бот", "Robot glouton", "Hladový bot"),
    "bot_mcts": ("MCTS bot (strong, slower)", "Бот MCTS (сильный, медленнее)", "Бот MCTS (сильний, повільніший)",
                 "Robot MCTS (fort, plus lent)", "Bot MCTS (silný, pomalejší)"),
    "new_game": ("New game", "Новая игра", "Нова гра", "Nouvelle partie", "Nová hra"),
    "factory_n": ("Factory {n}", "Фабрика {n}", "Фабрика {n}", "Fabrique {n}", "Továrna {n}"),
    "centre": ("Centre", "Центр", "Центр", "Centre", "Střed"),
    "to_move": ("to move", "ходит", "ходить", "à jouer", "na tahu"),
    "pick_tiles": ("Choose the tiles: tap a colour in a factory or the centre.",
                   "Выберите плитки: нажмите цвет на фабрике или в центре.",
                   "Виберіть плитки: натисніть колір на фабриці або в центрі.",
                   "Choisissez les tuiles : touchez une couleur d'une fabrique ou du centre.",
                   "Vyberte dlaždice: klepněte na barvu v továrně nebo ve středu."),
    "pick_line": ("Now tap a pattern line or the floor.", "Теперь нажмите линию узора или пол.",
                  "Тепер натисніть лінію візерунка або підлогу.",
                  "Touchez maintenant une ligne de motif ou le plancher.",
                  "Nyní klepněte na řadu vzoru nebo na podlahu."),
    "pick_cell": ("Choose the wall cell for the tile of line {n}.", "Выберите клетку стены для плитки линии {n}.",
                  "Виберіть клітинку стіни для плитки лінії {n}.",
                  "Choisissez la case du mur pour la tuile de la ligne {n}.",
                  "Zvolte políčko zdi pro dlaždici z řady {n}."),
    "hint": ("Hint", "Подсказка", "Підказка", "Conseil", "Nápověda"),
    "hint_is": ("Suggested move: {m}", "Предлагаемый ход: {m}", "Пропонований хід: {m}", "Coup suggéré : {m}",
                "Navržený tah: {m}"),
    "hint_row": ("{m}: {share} of the search, value {value}", "{m}: {share} поиска, оценка {value}",
                 "{m}: {share} пошуку, оцінка {value}", "{m} : {share} de la recherche, valeur {value}",
                 "{m}: {share} hledání, hodnota {value}"),
    "hint_value": ("The value is the move's mean result in the search, from 0 (a sure loss) to 1 (a sure, large win).",
                   "Оценка — средний результат хода в поиске: от 0 (верный проигрыш) до 1 (верная крупная победа).",
                   "Оцінка — середній результат ходу в пошуку: від 0 (певна поразка) до 1 (певна велика перемога).",
                   "La valeur est le résultat moyen du coup dans la recherche, de 0 (défaite sûre) à 1 (large "
                   "victoire sûre).",
                   "Hodnota je průměrný výsledek tahu při hledání, od 0 (jistá prohra) do 1 (jistá vysoká výhra)."),
    "undo": ("Undo", "Отменить ход", "Скасувати хід", "Annuler", "Zpět"),
    "cancel": ("Cancel", "Отмена", "Скасувати", "Annuler", "Zrušit"),
    "last_moves": ("Last moves", "Последние ходы", "Останні ходи", "Derniers coups", "Poslední tahy"),
    "replay_help": ("Upload a game record (one line of a .jsonl file) and step through it.",
                    "Загрузите запись партии (строку файла .jsonl) и просматривайте её по ходам.",
                    "Завантажте запис партії (рядок файлу .jsonl) і переглядайте її по ходах.",
                    "Envoyez une partie enregistrée (une ligne d'un fichier .jsonl) et parcourez-la.",
                    "Nahrajte záznam hry (jeden řádek souboru .jsonl) a procházejte jej."),
    "game_line": ("line of the file", "строка файла", "рядок файлу", "ligne du fichier", "řádek souboru"),
    "move_i": ("Move {i} of {n}", "Ход {i} из {n}", "Хід {i} з {n}", "Coup {i} sur {n}", "Tah {i} z {n}"),
    "first": ("First", "В начало", "На початок", "Début", "Začátek"),
    "prev": ("Previous", "Назад", "Назад", "Précédent", "Předchozí"),
    "next": ("Next", "Вперёд", "Вперед", "Suivant", "Další"),
    "last": ("Last", "В конец", "В кінець", "Fin", "Konec"),
    "second_tile": ("{name}: wall row {row} already has a tile this round: one tile a row in a round",
                    "{name}: в ряду стены {row} уже есть плитка этого раунда: одна плитка на ряд за раунд",
                    "{name}: у ряду стіни {row} уже є плитка цього раунду: одна плитка на ряд за раунд",
                    "{name} : la ligne {row} du mur a déjà une tuile cette manche : une tuile par ligne et par "
                    "manche",
                    "{name}: řada zdi {row} už má v tomto kole dlaždici: jedna dlaždice na řadu za kolo"),
    "token_max": ("the start token came with at most {n} tiles: a {players}-player round deals {n}",
                  "с жетоном первого игрока берут не больше {n} плиток: в раунде на {players} игроков их {n}",
                  "із жетоном першого гравця беруть не більше {n} плиток: у раунді на {players} гравців їх {n}",
                  "le marqueur premier joueur vient avec {n} tuiles au plus : une manche à {players} joueurs en "
                  "distribue {n}",
                  "se žetonem prvního hráče se bere nejvýš {n} dlaždic: kolo pro {players} hráče jich rozdá {n}"),
    "pass_keeps": ("{name}: a pass keeps at most 4 tiles", "{name}: при пасе остаётся не больше 4 плиток",
                   "{name}: при пасі залишається не більше 4 плиток", "{name} : une passe garde au plus 4 tuiles",
                   "{name}: při pasu zůstanou nejvýš 4 dlaždice"),
    "e_cell_taken": ("wall row {row}, column {col} is already taken",
                     "клетка стены в ряду {row}, столбце {col} уже занята",
                     "клітинка стіни в ряду {row}, стовпці {col} уже зайнята",
                     "la case du mur ligne {row}, colonne {col} est déjà prise",
                     "políčko zdi v řadě {row}, sloupci {col} je už obsazené"),
    "e_column_has": ("wall column {col} already has {colour}", "в столбце стены {col} уже есть «{colour}»",
                     "у стовпці стіни {col} уже є «{colour}»", "la colonne {col} du mur a déjà une tuile « {colour} »",
                     "sloupec zdi {col} už má barvu „{colour}“"),
    "e_row_has": ("wall row {row} already has {colour}", "в ряду стены {row} уже есть «{colour}»",
                  "у ряду стіни {row} уже є «{colour}»", "la ligne {row} du mur a déjà une tuile « {colour} »",
                  "řada zdi {row} už má barvu „{colour}“"),
    "e_line_holds": ("pattern line {line} holds {colour}, which wall row {row} already has",
                     "в линии узора {line} лежит «{colour}», а этот цвет уже есть в ряду стены {row}",
                     "у лінії візерунка {line} лежить «{colour}», а цей колір уже є в ряду стіни {row}",
                     "la ligne de motif {line} contient du « {colour} », que la ligne {row} du mur a déjà",
                     "řada vzoru {line} obsahuje barvu „{colour}“, kterou už má řada zdi {row}"),
    "e_covered": ("{star} space {space} is already covered", "{star}, клетка {space}, уже занята",
                  "{star}, клітинка {space}, уже зайнята", "{star}, case {space}, est déjà couverte",
                  "{star}, pole {space}, je už obsazené"),
    "e_star_takes": ("the {star} takes only {colour} tiles", "{star} принимает только плитки «{colour}»",
                     "{star} приймає лише плитки «{colour}»", "{star} ne prend que des tuiles « {colour} »",
                     "{star} bere jen dlaždice barvy „{colour}“"),
    "e_centre_differ": ("the centre star already holds {colour}: its six tiles must all differ",
                        "на центральной звезде уже есть «{colour}»: все шесть её плиток должны быть разными",
                        "на центральній зірці вже є «{colour}»: усі шість її плиток мають бути різними",
                        "l'étoile centrale a déjà une tuile « {colour} » : ses six tuiles doivent toutes différer",
                        "střední hvězda už má barvu „{colour}“: všech jejích šest dlaždic se musí lišit"),
    "e_centre_twice": ("the centre star holds {colour} twice", "на центральной звезде дважды «{colour}»",
                       "на центральній зірці двічі «{colour}»", "l'étoile centrale a deux fois « {colour} »",
                       "střední hvězda má barvu „{colour}“ dvakrát"),
    "e_wild_colour": ("{colour} is this round's wild colour: placing it pays all {n} tiles in {colour}, written "
                      "with 0 wild tiles",
                      "«{colour}» — джокер этого раунда: такая плитка оплачивается только плитками «{colour}» "
                      "(всего {n}), запишите 0 джокеров",
                      "«{colour}» — джокер цього раунду: така плитка оплачується лише плитками «{colour}» "
                      "(усього {n}), запишіть 0 джокерів",
                      "« {colour} » est la couleur joker de cette manche : la poser se paie en tuiles « {colour} » "
                      "seulement ({n} en tout), notez 0 joker",
                      "„{colour}“ je žolíková barva tohoto kola: její položení se platí jen dlaždicemi barvy "
                      "„{colour}“ (celkem {n}), zapište 0 žolíků"),
    "e_too_wild": ("{star} space {space} costs {n} tiles: at most {m} of them wild, since one real {colour} tile "
                   "is placed",
                   "{star}, клетка {space}: цена в плитках — {n}, джокеров среди них не больше {m}, ведь "
                   "кладётся одна настоящая плитка «{colour}»",
                   "{star}, клітинка {space}: ціна в плитках — {n}, джокерів серед них не більше {m}, адже "
                   "кладеться одна справжня плитка «{colour}»",
                   "{star}, case {space} : prix en tuiles {n}, dont {m} joker(s) au plus, car une vraie tuile "
                   "« {colour} » est posée",
                   "{star}, pole {space}: cena v dlaždicích {n}, počet žolíků nejvýše {m}, protože se pokládá "
                   "jedna skutečná dlaždice barvy „{colour}“"),
    "no_ends": ("every wall row of every player has a tile this round or is full: this sheet cannot score such a "
                "round",
                "в каждом ряду стены у каждого игрока есть плитка этого раунда или ряд полон: такой раунд этот "
                "лист посчитать не может",
                "у кожному ряду стіни в кожного гравця є плитка цього раунду або ряд повний: такий раунд цей "
                "аркуш порахувати не може",
                "chaque ligne du mur de chaque joueur a une tuile cette manche ou est pleine : cette feuille ne "
                "peut pas compter une telle manche",
                "každá řada zdi každého hráče má v tomto kole dlaždici nebo je plná: takové kolo tento záznam "
                "spočítat nedokáže"),
    "round_too_many": ("{n} tiles entered this round (the completed lines and the floors), but a round of {players} "
                       "players deals only {m}",
                       "в этом раунде введено плиток: {n} (заполненные линии и пол), а раунд на {players} "
                       "игроков раздаёт только {m}",
                       "у цьому раунді введено плиток: {n} (заповнені лінії та підлога), а раунд на {players} "
                       "гравців роздає лише {m}",
                       "{n} tuiles saisies cette manche (lignes complètes et planchers), mais une manche à "
                       "{players} joueurs n'en distribue que {m}",
                       "v tomto kole zadáno dlaždic: {n} (dokončené řady a podlahy), ale kolo pro {players} "
                       "hráče rozdá jen {m}"),
    "round_too_many_later": ("{n} tiles entered this round (the completed lines, at least one tile each, and the "
                             "floors), but a round of {players} players deals only {m}",
                             "в этом раунде введено плиток: не меньше {n} (заполненные линии, хотя бы по одной "
                             "плитке, и пол), а раунд на {players} игроков раздаёт только {m}",
                             "у цьому раунді введено плиток: щонайменше {n} (заповнені лінії, хоча б по одній "
                             "плитці, та підлога), а раунд на {players} гравців роздає лише {m}",
                             "au moins {n} tuiles saisies cette manche (lignes complètes, une tuile au moins "
                             "chacune, et planchers), mais une manche à {players} joueurs n'en distribue que {m}",
                             "v tomto kole zadáno nejméně {n} dlaždic (dokončené řady, každá aspoň jednou "
                             "dlaždicí, a podlahy), ale kolo pro {players} hráče rozdá jen {m}"),
    "too_many_tiles": ("more {colour} tiles than the game's {n}", "плиток цвета «{colour}» больше, чем {n} в игре",
                       "плиток кольору «{colour}» більше, ніж {n} у грі", "plus de tuiles « {colour} » que les {n} "
                       "du jeu", "více dlaždic barvy „{colour}“ než {n} ve hře"),
    "no_record_line": ("no record on line {n}", "на строке {n} нет записи", "у рядку {n} немає запису",
                       "aucune partie à la ligne {n}", "na řádku {n} není záznam"),
    "too_many_records": ("the file has more than {n} records", "в файле больше {n} записей",
                         "у файлі більше {n} записів", "le fichier contient plus de {n} parties",
                         "soubor má více než {n} záznamů"),
    "record_note": ("A sheet holds no factories nor moves: the record is one game, found by a search, whose deals "
                    "and drafts give these walls and scores by the rules; the engine's audit (the command "
                    "azul-engine audit) accepts it. The search can fail.",
                    "В листе счёта нет фабрик и ходов: запись — это одна партия, найденная поиском, раздачи и ходы "
                    "которой по правилам дают эти стены и очки; проверка движка (команда azul-engine audit) её "
                    "принимает. Поиск может не найти партию.",
                    "В аркуші рахунку немає фабрик і ходів: запис — це одна партія, знайдена пошуком, роздачі й "
                    "ходи якої за правилами дають ці стіни й очки; перевірка рушія (команда azul-engine audit) її "
                    "приймає. Пошук може не знайти партію.",
                    "Une feuille ne contient ni fabriques ni coups : la partie enregistrée est trouvée par une "
                    "recherche, ses tirages et ses coups donnent ces murs et ces scores selon les règles ; la "
                    "vérification du moteur (la commande azul-engine audit) l'accepte. La recherche peut échouer.",
                    "Záznam skóre neobsahuje továrny ani tahy: záznam hry je jedna hra nalezená hledáním, jejíž "
                    "rozdání a tahy dávají podle pravidel tyto zdi a body; kontrola enginu (příkaz azul-engine "
                    "audit) ji přijme. Hledání může selhat."),
    "no_record": ("No game was found in {s} s whose deals and drafts give this sheet's walls and scores; download "
                  "the score sheet (JSON) instead.",
                  "За {s} с не найдена партия, раздачи и ходы которой дают стены и очки этого листа; скачайте лист "
                  "счёта (JSON).",
                  "За {s} с не знайдено партії, роздачі й ходи якої дають стіни й очки цього аркуша; завантажте "
                  "аркуш рахунку (JSON).",
                  "Aucune partie trouvée en {s} s dont les tirages et les coups donnent les murs et les scores de "
                  "cette feuille ; téléchargez plutôt la feuille (JSON).",
                  "Za {s} s nebyla nalezena hra, jejíž rozdání a tahy dávají zdi a body tohoto záznamu; stáhněte "
                  "si raději záznam skóre (JSON)."),
    "star_O": ("orange star", "оранжевая звезда", "помаранчева зірка", "étoile orange", "oranžová hvězda"),
    "star_R": ("red star", "красная звезда", "червона зірка", "étoile rouge", "červená hvězda"),
    "star_B": ("blue star", "синяя звезда", "синя зірка", "étoile bleue", "modrá hvězda"),
    "star_Y": ("yellow star", "жёлтая звезда", "жовта зірка", "étoile jaune", "žlutá hvězda"),
    "star_G": ("green star", "зелёная звезда", "зелена зірка", "étoile verte", "zelená hvězda"),
    "star_P": ("purple star", "фиолетовая звезда", "фіолетова зірка", "étoile violette", "fialová hvězda"),
    "star_C": ("centre star", "центральная звезда", "центральна зірка", "étoile centrale", "střední hvězda"),
    "colour_lid": ("{colour}: {n} {colour} tiles in the pattern lines completed up to round {k}, but the game has "
                   "{total}, and none comes back from the lid before round {back} ({players} players)",
                   "«{colour}»: плиток этого цвета в линиях узора, заполненных до раунда {k} включительно: {n}, а в "
                   "игре их {total}, и из крышки в мешок ни одна не вернётся раньше раунда {back} (игроков: "
                   "{players})",
                   "«{colour}»: плиток цього кольору в лініях візерунка, заповнених до раунду {k} включно: {n}, а в "
                   "грі їх {total}, і з кришки в мішок жодна не повернеться раніше раунду {back} (гравців: "
                   "{players})",
                   "« {colour} » : {n} tuiles de cette couleur dans les lignes de motif complétées jusqu'à la manche "
                   "{k}, mais le jeu en a {total}, et aucune ne revient du couvercle dans le sac avant la manche "
                   "{back} ({players} joueurs)",
                   "„{colour}“: dlaždic této barvy v řadách vzoru dokončených do kola {k} včetně: {n}, ale hra jich "
                   "má {total} a z víka se do sáčku žádná nevrátí před kolem {back} (hráčů: {players})"),
    "colour_pour": ("{colour}: {n} {colour} tiles in the pattern lines completed this round, but at most {m} can be in "
                    "play in round {k}: what the bag had left and {d} tiles drawn from the lid",
                    "«{colour}»: плиток этого цвета в линиях узора, заполненных в этом раунде: {n}, а в раунде {k} "
                    "их может быть в игре не больше {m}: остаток мешка и {d} плиток из крышки",
                    "«{colour}»: плиток цього кольору в лініях візерунка, заповнених у цьому раунді: {n}, а в раунді "
                    "{k} їх може бути в грі не більше {m}: залишок мішка і {d} плиток з кришки",
                    "« {colour} » : {n} tuiles de cette couleur dans les lignes de motif complétées cette manche, "
                    "mais {m} au plus peuvent être en jeu à la manche {k} : le reste du sac et {d} tuiles tirées du "
                    "couvercle",
                    "„{colour}“: dlaždic této barvy v řadách vzoru dokončených v tomto kole: {n}, ale v kole {k} "
                    "jich může být ve hře nejvýš {m}: zbytek sáčku a {d} dlaždic z víka"),
    "pv_round_deals": ("this round's entries need at least {n} tiles from the factories and the centre (the tiles "
                       "paid, kept and discarded, less those kept from the last round and the bonus tiles received "
                       "in time to pay), but a round of {players} players deals {m}",
                       "плиток с фабрик и из центра записям этого раунда нужно не меньше {n} (оплаченные, "
                       "оставленные и сброшенные плитки за вычетом оставленных в прошлом раунде и бонусных плиток, "
                       "полученных вовремя, чтобы ими платить), а раунд на {players} игроков раздаёт {m}",
                       "плиток з фабрик і з центру записам цього раунду потрібно щонайменше {n} (оплачені, "
                       "залишені й скинуті плитки за вирахуванням залишених у минулому раунді та бонусних плиток, "
                       "отриманих вчасно, щоб ними платити), а раунд на {players} гравців роздає {m}",
                       "les saisies de cette manche demandent au moins {n} tuiles des fabriques et du centre (les "
                       "tuiles payées, gardées et défaussées, moins celles gardées de la manche précédente et les "
                       "tuiles bonus reçues à temps pour payer), mais une manche à {players} joueurs en distribue "
                       "{m}",
                       "zápisy tohoto kola potřebují z továren a ze středu nejméně {n} dlaždic (zaplacené, "
                       "ponechané a odhozené dlaždice bez těch ponechaných z minulého kola a bonusových dlaždic "
                       "získaných včas k placení), ale kolo pro {players} hráče rozdá {m}"),
    "pv_colour_tower": ("{colour}: {n} {colour} tiles paid up to round {k}, but the game has {total}, and none comes "
                        "back from the tower by then",
                        "«{colour}»: плиток этого цвета оплачено до раунда {k} включительно: {n}, а в игре их "
                        "{total}, и к этому времени ни одна не вернулась из башни",
                        "«{colour}»: плиток цього кольору оплачено до раунду {k} включно: {n}, а в грі їх {total}, "
                        "і на цей час жодна не повернулася з вежі",
                        "« {colour} » : {n} tuiles de cette couleur payées jusqu'à la manche {k}, mais le jeu en a "
                        "{total}, et aucune n'est encore revenue de la tour",
                        "„{colour}“: dlaždic této barvy zaplaceno do kola {k} včetně: {n}, ale hra jich má {total} "
                        "a z věže se do té doby žádná nevrátila"),
    "pv_colour_round": ("{colour}: {n} {colour} tiles paid this round and {b} on the boards before it, but the game "
                        "has {total} (and {s} bonus tiles this round that may come back from the tower)",
                        "«{colour}»: плиток этого цвета оплачено в этом раунде: {n}, на планшетах до него: {b}, а в "
                        "игре их {total} (и бонусных плиток в этом раунде, которые могли вернуться из башни: {s})",
                        "«{colour}»: плиток цього кольору оплачено в цьому раунді: {n}, на планшетах до нього: {b}, "
                        "а в грі їх {total} (і бонусних плиток у цьому раунді, які могли повернутися з вежі: {s})",
                        "« {colour} » : {n} tuiles de cette couleur payées cette manche et {b} sur les plateaux "
                        "avant elle, mais le jeu en a {total} (et {s} tuiles bonus cette manche, qui peuvent revenir "
                        "de la tour)",
                        "„{colour}“: dlaždic této barvy zaplaceno v tomto kole: {n}, na deskách před ním: {b}, ale "
                        "hra jich má {total} (a bonusových dlaždic v tomto kole, které se mohly vrátit z věže: {s})"),
    "no_wild_on_1": ("{name}: {star} space 1 costs one tile, a real {colour} one: no wild tile can stand in for it",
                     "{name}: {star}, клетка 1, стоит одну плитку — настоящую «{colour}»: джокер её заменить не "
                     "может",
                     "{name}: {star}, клітинка 1, коштує одну плитку — справжню «{colour}»: джокер її замінити не "
                     "може",
                     "{name} : {star}, case 1, coûte une seule tuile, une vraie tuile « {colour} » : aucun joker ne "
                     "peut la remplacer",
                     "{name}: {star}, pole 1, stojí jednu dlaždici, skutečnou barvy „{colour}“: žolík ji nahradit "
                     "nemůže"),
    "e_wall_pattern": ("wall: impossible wall: {colour} cannot be in row {row}, column {col} of the coloured wall",
                       "стена: невозможная стена: «{colour}» не может быть в ряду {row}, столбце {col} цветной стены",
                       "стіна: неможлива стіна: «{colour}» не може бути в ряду {row}, стовпці {col} кольорової стіни",
                       "mur : mur impossible : « {colour} » ne peut pas être à la rangée {row}, colonne {col} du mur "
                       "coloré",
                       "zeď: nemožná zeď: „{colour}“ nemůže být v řadě {row}, sloupci {col} barevné zdi"),
    "bad_score": ("score: “{v}” is not a whole number {min} or more", "счёт: «{v}» — не целое число от {min} и больше",
                  "рахунок: «{v}» — не ціле число від {min} і більше",
                  "score : « {v} » n'est pas un nombre entier de {min} ou plus",
                  "skóre: „{v}“ není celé číslo {min} nebo větší"),
    "forfeit": ("{who} forfeits: the game stops here, lost by that seat. Why:",
                "{who} проигрывает из-за сбоя бота: партия остановлена. Причина:",
                "{who} програє через збій бота: партію зупинено. Причина:",
                "{who} perd par forfait : la partie s'arrête ici. Raison :",
                "{who} prohrává kontumačně: hra tady končí. Důvod:"),
    "player": ("Player", "Игрок", "Гравець", "Joueur", "Hráč"),
    "new_tile": ("placed this round", "выложена в этом раунде", "викладена в цьому раунді", "posée cette manche",
                 "položena v tomto kole"),
    "line_n": ("pattern line {n}", "линия узора {n}", "лінія візерунка {n}", "ligne de motif {n}", "řada vzoru {n}"),
    "mv_floor": ("floor", "пол", "підлога", "plancher", "podlaha"),
    "mv_draft": ("{src}, {colour} → {to}", "{src}, {colour} → {to}", "{src}, {colour} → {to}", "{src}, {colour} → {to}",
                 "{src}, {colour} → {to}"),
    "mv_tile": ("line {row}'s tile to the wall, column {col}", "плитка линии {row} — на стену, столбец {col}",
                "плитка лінії {row} — на стіну, стовпець {col}", "tuile de la ligne {row} au mur, colonne {col}",
                "dlaždice z řady {row} na zeď, sloupec {col}"),
    "mv_take": ("{src}: {colour}", "{src}: {colour}", "{src}: {colour}", "{src} : {colour}", "{src}: {colour}"),
    "mv_place": ("{star}, space {space}: {colour}", "{star}, поле {space}: {colour}", "{star}, поле {space}: {colour}",
                 "{star}, case {space} : {colour}", "{star}, pole {space}: {colour}"),
    "mv_bonus": ("bonus tile: {colour}", "бонусная плитка: {colour}", "бонусна плитка: {colour}",
                 "tuile bonus : {colour}", "bonusová dlaždice: {colour}"),
    "mv_pass": ("pass, keeping {kept}", "пас, оставлено: {kept}", "пас, залишено: {kept}", "passe, gardées : {kept}",
                "pas, ponecháno: {kept}"),
    "mv_refill": ("the supply refilled from the bag: {tiles}", "запас пополнен из мешка: {tiles}",
                  "запас поповнено з мішка: {tiles}", "réserve complétée depuis le sac : {tiles}",
                  "zásoba doplněna ze sáčku: {tiles}"),
    "mv_pass_none": ("pass, keeping nothing", "пас, ничего не оставлено", "пас, нічого не залишено",
                     "passe, rien de gardé", "pas, nic neponecháno"),
    "bad_request": ("Bad request", "Неверный запрос", "Неправильний запит", "Requête invalide",
                    "Chybný požadavek"),
    "not_found": ("Not found", "Не найдено", "Не знайдено", "Introuvable", "Nenalezeno"),
    "too_large": ("The upload is too large: at most {n} bytes.", "Файл слишком большой: не более {n} байт.",
                  "Файл завеликий: не більше {n} байтів.", "Envoi trop gros : {n} octets au plus.",
                  "Soubor je příliš velký: nejvýše {n} bajtů."),
    "no_game": ("No game here yet: start one.", "Игры пока нет: начните новую.", "Гри ще немає: почніть нову.",
                "Pas encore de partie : commencez-en une.", "Zatím tu není žádná hra: začněte novou."),
    "empty_file": ("The file holds no record.", "В файле нет записей.", "У файлі немає записів.",
                   "Le fichier ne contient aucune partie.", "Soubor neobsahuje žádný záznam."),
    "bot_thinking": ("The bots have moved.", "Боты сделали ходы.", "Боти зробили ходи.",
                     "Les robots ont joué.", "Boti táhli."),
    "reload_note": ("A game in progress is kept on this computer's server: reloading the page keeps it.",
                    "Незаконченная партия хранится на сервере этого компьютера: перезагрузка страницы её не "
                    "теряет.",
                    "Незавершена партія зберігається на сервері цього комп'ютера: перезавантаження сторінки її "
                    "не втрачає.",
                    "Une partie en cours est gardée par le serveur de cet ordinateur : recharger la page la "
                    "conserve.",
                    "Rozehraná hra je uložena na serveru tohoto počítače: znovunačtení stránky ji zachová."),
}

# The engine's refusals that a score sheet can meet, by the engine's English wording (both engines word them
# alike), each with the key of its translation in T; a "Name: " before one is kept as it is.
_COLOUR = r"(?P<colour>blue|yellow|red|black|white|purple|green|orange)"
_STAR = r"(?P<star>orange|red|blue|yellow|green|purple|centre)"
_WHERE = _STAR + r" star space (?P<space>\d)"
ENGINE = (
    # (first: "the centre star holds ... twice" below would match a board's, with "board: " for a name)
    (r"board: (?P<n>\d+) rows, not 7 \(one row per star, O R B Y G P C, each its six spaces; or rows separated by "
     r"'/'\)", "e_board_rows"),
    (r"board: row (?P<row>\d) \(" + _STAR + r" star\): '(?P<ch>.)' is not a colour letter \(P G O Y B R\) or '\.' "
     r"for an empty space", "e_board_letter"),
    (r"board: row (?P<row>\d) \(" + _STAR + r" star\) has (?P<n>\d+) spaces, not 6: '(?P<cells>[^']*)'",
     "e_board_cells"),
    (r"board: the " + _STAR + r" star cannot hold " + _COLOUR, "e_board_star"),
    (r"board: the centre star holds " + _COLOUR + r" twice", "e_board_twice"),
    (r"wall row (?P<row>\d), column (?P<col>\d) is already taken", "e_cell_taken"),
    (r"wall column (?P<col>\d) already has " + _COLOUR, "e_column_has"),
    (r"wall row (?P<row>\d) already has " + _COLOUR, "e_row_has"),
    (r"pattern line (?P<line>\d) holds " + _COLOUR + r", which wall row (?P<row>\d) already has", "e_line_holds"),
    (_WHERE + r" is already covered", "e_covered"),
    (r"the (?P<star>orange|red|blue|yellow|green|purple) star takes only " + _COLOUR + r" tiles", "e_star_takes"),
    (r"the centre star already holds " + _COLOUR + r": its six tiles must all differ", "e_centre_differ"),
    (r"the centre star holds " + _COLOUR + r" twice", "e_centre_twice"),
    (_COLOUR + r" is this round's wild colour: placing it pays all (?P<n>\d) tiles in (?P=colour), written with 0 "
     r"wild tiles", "e_wild_colour"),
    (_WHERE + r" costs (?P<n>\d) tiles: at most (?P<m>\d) of them wild, since one real " + _COLOUR
     + r" tile is placed", "e_too_wild"),
    (r"wall: row (?P<row>\d): '(?P<ch>.)' is not a colour letter \(B Y R K W\) or '\.' for an empty cell",
     "e_wall_letter"),
    (r"wall: (?P<n>\d+) rows, not 5 \(one row per line, or rows separated by '/'\)", "e_wall_rows"),
    (r"wall: row (?P<row>\d) has (?P<n>\d+) cells, not 5: '(?P<cells>[^']*)'", "e_wall_cells"),
    (r"wall: impossible wall: row (?P<row>\d) repeats a colour", "e_wall_row_repeats"),
    (r"wall: impossible wall: column (?P<col>\d) repeats a colour", "e_wall_col_repeats"),
    (r"wall: impossible wall: " + _COLOUR + r" cannot be in row (?P<row>\d), column (?P<col>\d) of the coloured "
     r"wall", "e_wall_pattern"),
)
_ENGINE = tuple((re.compile(r"^(?P<who>.+: )?" + pattern + "$", re.S), key) for pattern, key in ENGINE)


def engine_text(lang, message):
    """``message`` (an engine's refusal, maybe after "Name: ") in ``lang`` when it is one of ENGINE's, with its
    colours and stars named in that language; else as it is."""
    if lang == "en" or lang not in LANGUAGES:
        return message
    for pattern, key in _ENGINE:
        m = pattern.match(message)
        if m:
            fields = {k: v for k, v in m.groupdict().items() if k != "who" and v is not None}
            if "colour" in fields:
                fields["colour"] = text(lang, fields["colour"])
            if "star" in fields:
                fields["star"] = text(lang, "star_" + STAR_LETTERS[fields["star"]])
            return who(lang, m.group("who")) + text(lang, key, **fields)
    return message


def who(lang, prefix):
    """A "Name: " before a message, with the language's colon ("Name : " in French); "" for None."""
    if not prefix:
        return ""
    return text(lang, "colon", x=prefix[:-2]) + " "


STAR_LETTERS = {"orange": "O", "red": "R", "blue": "B", "yellow": "Y", "green": "G", "purple": "P", "centre": "C"}
COLOUR_KEYS = {"B": "blue", "Y": "yellow", "R": "red", "K": "black", "W": "white"}
PAVILION_COLOUR_KEYS = {"P": "purple", "G": "green", "O": "orange", "Y": "yellow", "B": "blue", "R": "red"}


def text(lang, key, **fields):
    """The text of ``key`` in ``lang`` (English if ``lang`` is unknown), with ``fields`` filled in."""
    i = LANGUAGES.index(lang) if lang in LANGUAGES else 0
    s = T[key][i]
    return s.format(**fields) if fields else s


def choose(accept_language):
    """The best of LANGUAGES for an Accept-Language header (``ru-RU,ru;q=0.9,en;q=0.8``); English if none."""
    best, best_q = "en", -1.0
    if not isinstance(accept_language, str):
        return best
    for position, part in enumerate(accept_language[:500].split(",")[:30]):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        params = params.strip()
        if params.startswith("q="):
            try:
                q = float(params[2:])
            except ValueError:
                continue
        code = tag.strip().lower().split("-")[0]
        if code in LANGUAGES and q > best_q:
            best, best_q = code, q
    return best
