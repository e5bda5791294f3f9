"""A small built-in vocabulary for the typo estimator: common English words, informal chat
spellings, and programming terms. Inflections are handled by suffix rules in
:mod:`autointeract.history.typos`, so only base forms are listed.

It is deliberately small; on a real corpus the estimator adds the words the agent itself
writes (see :func:`autointeract.history.typos.vocabulary_from_texts`).
"""

from __future__ import annotations

from functools import cache

_ENGLISH = """
a about above across act action actual actually add after again against age ago agree ahead
all allow almost alone along already also although always am among amount an and another
answer any anyone anything anyway anywhere appear apply approach are area around as ask at
available avoid away back bad base be because become been before begin behind being believe
below best better between big bit both bottom break bring but buy by call came can case
cause certain change check choose clear close come common complete consider continue
correct could couple course current cut day deal decide deep default define describe detail
did differ different do does doing done down during each early easy either else empty end
enough entire even ever every exact example except expect explain fact fail fair fall far
fast feel few fill final find fine first fit fix follow for form forward found free from
full further get give go goes going gone good got great group guess had half hand happen
hard has have he head hear help her here high him his hold hope how however i idea if
important in include instead into is issue it its itself just keep kind know large last
late later least leave left less let level like likely line little long look lose lot low
main make many matter may maybe me mean might mind miss more most move much must my myself
name near need never new next nice no none nor not note nothing now number of off often ok
okay old on once one only open or order other our out over own part pass people perhaps
person place plan please point possible prefer pretty probably problem proper put quick
quite rather reach read ready real really reason right run same say see seem send set
several shall she short should show side simple since small so some something sometimes
soon sorry sort start state still stop such suggest suppose sure take talk tell than thank
thanks that the their them then there these they thing think this those though through
time to today together too top toward true try turn twice two under understand unless
until up upon us use used usual very wait want was way we well were what whatever when
where whether which while who whole why will wish with within without wonder word work
worry would write wrong yes yet you your yours yourself above below however again whose
ones anyways basically literally honestly seriously definitely obviously especially
exactly likely simply rather whole quite enough beautiful ugly weird strange broken
confused confusing happy sad nice cool awesome perfect great amazing terrible horrible
annoying lame wavy smooth slow fast heavy light dark black white red green blue yellow
gray grey big huge tiny small second third half hour minute moment week month year
morning night yesterday tomorrow tonight ever never everything everyone someone somewhere
nowhere nobody anybody somebody else instead otherwise therefore thus hence meanwhile
agree disagree approve reject accept decline allow deny forget remember notice realize
wonder hope assume guess expect mean meant seems looks sounds feels appears
"""

_INFORMAL = """
dont cant wont didnt doesnt isnt arent wasnt werent shouldnt wouldnt couldnt havent hasnt
im ive id youre theyre thats whats lets heres theres ok okay oki okey yeah yep yup nope nah
hmm hm uh um oh ah huh wow lol btw imo imho afaik fyi tbh pls plz thx ty lgtm wip
gonna wanna gotta kinda sorta dunno alright ya yea aha ugh meh tho cuz
"""

_PROGRAMMING = """
api app args argument array async await backend bash binary bool boolean branch browser
buffer bug build bundle byte cache call callback cli client code commit compile compiler
component config console const constructor container context cpu crate css data database
debug debugger default delete dependency deploy deployment dict diff directory docker docs
dom editor element endpoint enum env environment error event exception export extension
fetch field file filter flag float folder font frontend func function git github gpu hash
header helper hook host html http https import index init input install instance int
integer interface issue item iterate java javascript json key keyword lambda layout lib
library lint linter list load local localhost lock log logger logic loop main map merge
message method middleware migration mock model module mutex namespace node null number
object offset output override package padding page param parameter parse parser patch path
payload performance pipeline plugin pointer port post prompt props push python query queue
react readme refactor regex render renderer repo repository request response rest result
return root route router runtime rust schema scope script sdk server service session
setting settings setup shell snippet socket sort source spec sql stack state static status
stderr stdin stdout storage store string struct style subprocess sudo sync syntax table
tag task template terminal test testing thread timeout token tool trace type typescript ui
undefined unit update upload url user util utils validate value var variable version view
void warning web webhook widget window worker workflow wrapper yaml ssh cpu ram llm agent
prompt token tokens model models inference dataset training checkpoint tensor torch cuda
pytest unittest npm yarn pnpm bun pip venv conda cargo makefile dockerfile kubernetes
frontend backend fullstack async sync regex refactoring lint formatter prettier eslint
rebase cherry pick stash checkout pull fetch clone fork upstream origin main master
staging prod production dev localhost readme changelog license todo fixme hotfix
screenshot screen button click hover scroll modal dialog tooltip dropdown menu sidebar
navbar footer header icon image video audio canvas animation transition layout grid flex
margin border color theme dark light mobile desktop responsive viewport pixel
"""

_COMMON = """
ability able absolute abstract accept access accident accidentally account accurate achieve
acknowledge acquire active activity adapt addition additional address adjust admin admit
adopt advance advantage advice affect afford afraid against aggregate aggressive aim air
alert align alive alternative amazing amend analysis analyze anger angle animal announce
annual answer anticipate anxious apart apologize apparent appeal appreciate appropriate
approve arbitrary argue arise arrange arrive art article artifact aside aspect assert assess
asset assign assist associate assume attach attack attempt attend attention attribute audit
author auto automatic automate average aware award awkward axis baby background backup
balance ban band bank bar bare barely basic basis batch battle bear beat beauty bed begin
behave behavior behaviour belong benefit bet beyond bias bind bite blame blank blind block
blob blow board body boil bold bone book boost boot border bore borrow boss bother bounce
bound box brain brand brave bread breath brief bright brilliant broad brother brown brush
bucket budget bulk bullet bump bunch burden burn burst bury business busy button bypass
cable calculate calendar calm camera camp cancel candidate cap capable capacity capital
capture car card career careful carefully carrier carry cast catch category caught cell
center central centre century chain chair challenge chance channel chapter char character
charge chart chase cheap cheat chief child chip choice chunk circle circular cite city
claim class classic classifier classify clause clean climb clip clock clone closed cloud
cluster coach coin cold collapse collect collection column combine comfort comment commit
communicate community compare compatible compete complain complex complicated compose
compress compute concat concatenate concept concern concrete condition conduct confident
confirm conflict connect connection consequence consistent constant constraint construct
consume contact contain content contest contract contrast contribute control convert
convince cook copy core corner cost count counter country cover crap crash crazy create
credit crew crime critical cross crowd crucial cry culture curious curve custom customer
cycle daily damage damn dance danger dash date dead deadline dear debt decent declare
decrease dedicated defer deficit definite definition degree delay delete deliberate delicate
delimiter deliver demand demo demonstrate dense depend deploy depth derive descend design
desire desk despite destroy detect determine develop developer device devil diagram dial
die diet dig digit dimension dinner direct direction dirty disable disagree disappear
discard discover discuss disk dismiss display distance distinct distribute dive divide doc
document dog dollar domain door dot double doubt downstream draft drag drain drama draw
dream dress drift drill drink drive drop drug dry dude due dull dump duplicate durable
duration dust duty eager ear earn earth ease east eat echo edge edit effect effective
efficient effort elegant elsewhere embed emerge emit emotion employ enable encode encounter
encourage energy engage engine enhance enjoy ensure enter entry equal equivalent era erase
escape essential establish estimate evaluate evidence evil evolve examine excellent
exception exchange excite exclude exclusion execute exercise exist exit expand expend
expensive experience experiment expert expire explicit explicitly explore expose express
extend external extra extract eye face facility factor fade failure faith fake familiar
family famous fan fancy fault favor favorite fear feature feed feedback fight figure final
finally finance finish fire firm fit flat flash flexible flip float flow fly focus fold
fool foot force foreign forever forgot format former fortune foundation frame framework
freeze frequent fresh friend front frozen fruit frustrate fuck fucking fuel fun fund funny
future gain game gap garbage gate gather gauge general generate generic genuine gesture
giant gift glad glance glass global glue goal god gold golden govern grab grace grade
gradual grand grant graph grasp grateful gross ground grow growth guarantee guard guest
guide guy habit hack hair handle hang hardly harm hate health heart heat heavy height hell
hello hero hidden hide highlight hint hire history hit hole holiday honest hook horse hot
house huge human hunt hurry hurt ideal identical identify identity ignore ill illegal
illustrate image imagine immediate impact implement implicit imply impose impress improve
incident inclusive incoming increase incredible indeed independent indicate individual
industry infer infinite inflate influence inform initial inject inner innocent insert
inside insight insist inspect inspire instance instant intend intent interact interest
internal interpret interrupt interval introduce invalid invent invest invite involve iron
isolate item job join joke journey judge jump junk justify keen kick kill king kitchen
knock label lack lady land language lap laptop latter laugh launch law lay layer lazy lead
leak lean leap learn lease leg legacy legal legit lend length lesson letter lever lie life
lift limit link lip listen literal live lobby locate logic lonely loose lose loss loud love
lovely luck lunch machine mad magic magnitude mail maintain major manage manual margin mark
market mass master match material math maximum meal measure mechanism media medium meet
member memory mention mentor mess metal metric middle mild military million minimal
minimize minor mirror mistake mix mode modern modest modify money monitor mood moon moral
mount mouse mouth movie multiple muscle music mutate narrow nation native natural nature
navigate nearby neat necessary neck negative neither nest net network neutral noise normal
north nose notify novel nuance nuanced obey object obscure observe obtain obvious occasion
occur odd offer office official operate opinion opportunity oppose optimal optimize option
optional ordinary organize origin outcome outline outside overall overflow overlap overlay
overview owner pace pack pain paint pair panel panic paper parallel parent park partial
particle particular partner party paste pattern pause pay peace peak peer penalty pending
perceive percent perfect perform period permanent permission permit persist personal
perspective phase phone photo phrase physical pick picture piece pile pilot pin pipe pitch
plain planet plant plate platform play player pleasant plenty plot plus pocket poem policy
polish polite poll pool poor pop popular portion position positive possess post potential
pour power practice praise precise predict prepare present preserve press pressure prevent
previous price pride primary prime principle print prior priority private prize process
produce product profile profit program progress project promise promote prompt proof
propagate property proposal propose protect protocol proud prove provide public publish
pull pump punch pure purpose pursue quality quarter question quiet quota quote race radio
raise random range rank rapid rare rate raw reaction realistic rear rebuild recall receive
recent reckon recognize recommend record recover reduce redundant refer reflect reform
refuse regard regards region register regret regular reject relate relative relax release
relevant reliable relief rely remain remark remind remote rent repair repeat replace reply
report represent reproduce require rescue research reserve resist resolve resource respect
respond responsible rest restart restore restrict retain retry reveal reverse revert review
reward rich rid ride riddle ring rise risk road robust rock role roll room rough round row
rule rush safe safety sake salt sample sand satisfy save scale scan scenario scene schedule
scheme school science score scratch screen sea search season seat secret section secure
seed seek segment select self sell sense sensible sensitive sensor sentence separate
sequence serious serve shadow shake shallow shape share sharp shed sheet shelf shift shine
ship shirt shit shock shoot shop shot shoulder shout shrink shut sick sign signal signature
silent silly similar sin sine single sink sir sit site situation size skill skip sky sleep
slice slide slight slip slot slow smart smell smile snap social soft software soil solid
solution solve son song sound south space spare speak special specific speed spell spend
spent spin spirit split sponsor spot spread spring square squash stable staff stage stake
stale stand standard star stay steady steal step stick stiff stone store story straight
strategy stream street strength stress stretch strict strike strip strong structure
struggle stuck student study stuff stupid subject submit succeed success sudden suffer
sugar suit summary summarize sun super supply support surface surprise surround survive
suspect sweet swing switch symbol system tail talent target taste tax teach team tear
technical technique tend term terrible text theory thick thin thorough thread threat
threshold throw thrown thumb ticket tie tight till tip tired title toggle tone tongue tool
tooth topic total touch tough tour track trade traditional traffic train transfer transform
translate transparent trap trash travel treat tree trend trial trick trigger trim trip
trivial trouble truck trust truth tune twist typical unique unit universe unknown upgrade
upper upset urgent usage useful useless valid valuable vast vehicle verify verbose version
victim video virtual visible vision visit visual voice volume vote walk wall war warm warn
wash waste watch water wave weak wealth weapon wear weather weight welcome west wheel wide
wild win wind wire wise witness woman wood worth wrap yard yell young zero zone
ate became began bent bit bled blew bore bought bred broke brought built burnt chose clung
crept dealt dug drew drank drove dwelt fed fell felt fled flew forbade forgave froze grew
hid hung held hurt kept knelt knew laid led leapt lent lit lost made meant met paid quit
ran rang rode rose said sang sank sat saw sent shook shone shot shrank slept slid sold
sought spoke spun stole stood struck stuck stung swam swept swore taught thought threw
told took tore understood wept woke won wore wound wrote written spoken taken given chosen
forgotten hidden broken frozen eaten fallen driven ridden risen shaken stolen sworn torn
worn woken beaten bitten went gone known shown grown flown drawn
one two three four five six seven eight nine ten eleven twelve twenty thirty hundred thousand
abort auth browse care chat chore curl decode discovery email factory fallback feat fully
grep heap home info lang latex locale mask memo muted naive omit pane past possibly prop
ratio redaction repro slash snow stall stroke trail vault world complaint weve youve
colour behaviour favour honour labour centre theatre analyse organise realise recognise
"""


@cache
def builtin_vocabulary() -> frozenset[str]:
    """The built-in vocabulary, lower-cased."""
    return frozenset((_ENGLISH + _COMMON + _INFORMAL + _PROGRAMMING).lower().split())
