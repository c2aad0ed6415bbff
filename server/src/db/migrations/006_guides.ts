import type { LocaleCode } from '../../../../src/api/types';

/**
 * The articles every installation starts with (migration 006 inserts them
 * once, published): a getting-started guide, how the DCA replenish strategy
 * works, and the risk notice. Bodies use only the markup the sanitizer keeps
 * (a test checks that sanitizing them changes nothing).
 */
export interface GuideText {
  title: string;
  summary: string;
  body: string;
}

export interface Guide {
  id: string;
  /** Minutes before the migration ran: fixes the order of the list (newest first). */
  minutesAgo: number;
  texts: Record<LocaleCode, GuideText>;
}

const welcome: Guide = {
  id: '00000000-0000-4000-8000-00000000a001',
  minutesAgo: 0,
  texts: {
    'zh-CN': {
      title: '新手指南：五步开始自动补仓交易',
      summary: '从模拟账户到第一个交易任务：绑定交易所账户、选择策略、添加交易对、查看订单和收益。',
      body: [
        '<p>欢迎使用量化交易！机器人会按照你选定的补仓策略，全天候替你在交易所下单：先买入首单，价格下跌到设定的档位时分批补仓，整体回到止盈线后卖出，然后开始下一轮。下面五步带你跑通第一个任务。</p>',
        '<h2>第一步：添加交易所账户</h2>',
        '<p>打开<strong>我的 → API 列表</strong>。建议先添加一个<strong>模拟账户</strong>：它用虚拟资金按真实行情成交，不需要 API Key，也不会动用真实资金。熟悉之后再绑定真实交易所的 API Key。</p>',
        '<ul><li>API Key 只需开启<strong>现货交易</strong>权限。</li><li><strong>千万不要开启提现权限</strong>：可以提现的 Key 会被拒绝保存。</li><li>Key 保存前会先向交易所验证，保存后加密存储，不再显示。</li></ul>',
        '<h2>第二步：选择或新建策略</h2>',
        '<p>在<strong>策略</strong>页可以直接复制一个系统模板（稳健型、均衡型、激进型），也可以用阶梯生成器自己设计补仓档位。每个策略都会显示它的补仓阶梯，以及首单 10 USDT 时一轮最多占用多少资金。</p>',
        '<h2>第三步：添加交易对</h2>',
        '<p>在<strong>交易</strong>页点<strong>添加交易对</strong>，选择交易所账户、一个或多个交易对（例如 BTC/USDT）、首单金额和策略模板。提交前系统会逐笔检查阶梯中的订单是否满足交易所的最小下单额和精度，以及余额是否够一整轮使用，问题会在开始前提示，而不是在半路出现。</p>',
        '<p>创建任务前需要先在<strong>我的 → 激活账户</strong>用一张激活卡或 USDT 激活账户，激活时会获赠一笔燃料，足够开始最初的几轮。</p>',
        '<h2>第四步：观察任务运行</h2>',
        '<p>任务开始后，机器人会立即买入首单。任务详情页显示当前价格、持仓均价、已补仓档位、止盈价以及每一笔成交；随时可以暂停、立即补仓或一键平仓。</p>',
        '<h2>第五步：查看收益</h2>',
        '<p>每完成一轮，已实现收益会计入<strong>我的 → 收益明细</strong>。机器人按平台设置的比例从每轮收益中扣除<strong>燃料</strong>作为服务费；燃料用完时，机器人会做完当前这一轮，但不会开启新的一轮，充值或兑换燃料后即可继续。</p>',
        '<blockquote>提示：先用模拟账户跑几轮，确认策略在不同行情下的表现，再投入真实资金。</blockquote>',
      ].join(''),
    },
    'en-US': {
      title: 'Getting started: your first automated DCA task in five steps',
      summary: 'From a paper account to your first trading task: add an exchange account, pick a strategy, add a pair, follow orders and profit.',
      body: [
        '<p>Welcome to Quant Trader! The robot trades on your exchange around the clock following the replenish (DCA) strategy you choose: it buys a first order, buys more in steps as the price falls to the levels you set, sells once the whole position is back above the take-profit line, and then starts the next cycle. These five steps take you through your first task.</p>',
        '<h2>Step 1: add an exchange account</h2>',
        '<p>Open <strong>Me → Exchange APIs</strong>. Start with a <strong>paper account</strong>: it trades virtual funds at real market prices, needs no API key and never touches real money. Bind a real exchange API key once you are familiar with the product.</p>',
        '<ul><li>The API key only needs <strong>spot trading</strong> permission.</li><li><strong>Never enable withdrawals</strong> on the key: a key that can withdraw is refused.</li><li>The key is checked with the exchange before it is saved, then stored encrypted and never shown again.</li></ul>',
        '<h2>Step 2: pick or build a strategy</h2>',
        '<p>On the <strong>Strategy</strong> tab, copy a system template (conservative, balanced or aggressive) or design your own ladder with the generator. Every strategy shows its replenish ladder and the most one cycle can use with a 10 USDT first order.</p>',
        '<h2>Step 3: add a trading pair</h2>',
        '<p>On the <strong>Trade</strong> tab, choose <strong>New trading task</strong>, then the exchange account, one or more pairs (BTC/USDT, for example), the first-order amount and the strategy. Before the task starts, every order of its ladder is checked against the exchange’s minimum order size and precision, and your balance against what a full cycle needs, so problems show up before the start, not halfway through a cycle.</p>',
        '<p>Creating a task needs an activated account: activate it under <strong>Me → Activate account</strong> with an activation card or USDT. Activation comes with a fuel gift, enough for your first cycles.</p>',
        '<h2>Step 4: follow the task</h2>',
        '<p>The robot buys the first order right away. The task page shows the current price, the average cost, the levels already bought, the take-profit price and every fill. You can pause the task, replenish now or close the position at any time.</p>',
        '<h2>Step 5: check your profit</h2>',
        '<p>Each finished cycle adds its realized profit to <strong>Me → Profit detail</strong>. The service fee is paid in <strong>fuel</strong>: a share of each cycle’s profit set by the platform. When fuel runs out, the robot finishes the current cycle but opens no new one; top up or swap for fuel to continue.</p>',
        '<blockquote>Tip: run a few cycles on a paper account first and see how your strategy behaves in different markets before you commit real money.</blockquote>',
      ].join(''),
    },
    'zh-TW': {
      title: '新手指南：五個步驟開始自動補倉交易',
      summary: '從模擬帳戶到第一個交易任務：綁定交易所帳戶、選擇策略、新增交易對、查看訂單與收益。',
      body: [
        '<p>歡迎使用量化交易！機器人會依照你選定的補倉策略，全天候替你在交易所下單：先買入首單，價格下跌到設定的檔位時分批補倉，整體回到停利線後賣出，接著開始下一輪。以下五個步驟帶你跑完第一個任務。</p>',
        '<h2>步驟一：新增交易所帳戶</h2>',
        '<p>開啟<strong>我的 → API 列表</strong>。建議先新增一個<strong>模擬帳戶</strong>：它以虛擬資金依真實行情成交，不需要 API Key，也不會動用真實資金。熟悉之後再綁定真實交易所的 API Key。</p>',
        '<ul><li>API Key 只需要開啟<strong>現貨交易</strong>權限。</li><li><strong>請勿開啟提領權限</strong>：可以提領的 Key 會被拒絕儲存。</li><li>Key 儲存前會先向交易所驗證，儲存後加密保存，不會再次顯示。</li></ul>',
        '<h2>步驟二：選擇或新增策略</h2>',
        '<p>在<strong>策略</strong>頁可以直接複製系統範本（穩健型、均衡型、積極型），也可以用階梯產生器自行設計補倉檔位。每個策略都會顯示它的補倉階梯，以及首單 10 USDT 時單輪最多佔用多少資金。</p>',
        '<h2>步驟三：新增交易對</h2>',
        '<p>在<strong>交易</strong>頁點選<strong>新增交易對</strong>，選擇交易所帳戶、一個或多個交易對（例如 BTC/USDT）、首單金額與策略範本。送出前系統會逐筆檢查階梯中的訂單是否符合交易所的最低下單金額與精度，並確認餘額足夠完整跑完一輪，問題會在開始前提醒，而不是跑到一半才發生。</p>',
        '<p>建立任務前需要先在<strong>我的 → 啟用帳戶</strong>以一張啟用卡或 USDT 啟用帳戶，啟用時會獲贈一筆燃料，足夠開始最初的幾輪。</p>',
        '<h2>步驟四：觀察任務運作</h2>',
        '<p>任務開始後，機器人會立即買入首單。任務詳情頁會顯示目前價格、持倉均價、已補倉檔位、停利價以及每一筆成交；你隨時可以暫停、立即補倉或一鍵平倉。</p>',
        '<h2>步驟五：查看收益</h2>',
        '<p>每完成一輪，已實現收益會計入<strong>我的 → 收益明細</strong>。平台會依設定的比例從每輪收益中扣除<strong>燃料</strong>作為服務費；燃料用完時，機器人會跑完目前這一輪，但不會開啟新的一輪，儲值或兌換燃料後即可繼續。</p>',
        '<blockquote>小提醒：先用模擬帳戶跑幾輪，確認策略在不同行情下的表現，再投入真實資金。</blockquote>',
      ].join(''),
    },
  },
};

const dca: Guide = {
  id: '00000000-0000-4000-8000-00000000a002',
  minutesAgo: 1,
  texts: {
    'zh-CN': {
      title: '补仓（DCA）策略是怎样运作的',
      summary: '首单、补仓档位、倍数、止盈和回调：看懂一轮交易的完整过程，以及如何估算一轮需要的资金。',
      body: [
        '<p>补仓策略（DCA，又称马丁格尔式加仓）不预测行情，而是在价格下跌时分批买入、拉低持仓均价，等价格小幅反弹、整体回到止盈线时卖出获利。下面用一个例子说明一轮交易的全过程。</p>',
        '<h2>一轮交易的四个阶段</h2>',
        '<ol><li><strong>首单</strong>：任务开始时按首单金额买入，例如 10 USDT 的 BTC，成交价 60 000。</li><li><strong>补仓</strong>：每个档位有一个跌幅和一个倍数。价格比首单成交价低出该跌幅时，买入“首单金额 × 倍数”。</li><li><strong>止盈</strong>：持仓的市值高出持仓均价达到止盈比例时，卖出全部持仓。</li><li><strong>下一轮</strong>：等待设定的间隔后重新买入首单，直到完成设定的循环次数（9999 表示一直运行，直到手动停止）。</li></ol>',
        '<h2>举例</h2>',
        '<p>首单 10 USDT，档位为：跌 2% 买 1 倍、跌 4% 买 2 倍、跌 8% 买 4 倍，止盈 1.5%。</p>',
        '<ul><li>60 000 买入 10 USDT；</li><li>跌到 58 800（-2%）补 10 USDT；</li><li>跌到 57 600（-4%）补 20 USDT；</li><li>此时共投入 40 USDT，持仓均价约 58 480；</li><li>价格回到约 59 360（均价上方 1.5%）即可全部卖出，获利约 0.6 USDT，这时价格仍比首单低约 1.1%。</li></ul>',
        '<p>这就是补仓的意义：不需要价格回到起点，只要从低位反弹一小段就能完成一轮。</p>',
        '<h2>回调：更好的买点与卖点</h2>',
        '<ul><li><strong>止盈回调</strong>：达到止盈线后不立即卖出，而是追踪最高价，从最高点回落该比例时才卖出，让上涨多跑一段。</li><li><strong>补仓回调</strong>：触及补仓档位后不立即买入，而是追踪最低价，从最低点反弹该比例时才买入，避免在急跌中过早补仓。</li></ul>',
        '<h2>一轮需要多少资金</h2>',
        '<p>一轮最多占用的资金 = 首单金额 × (1 + 所有档位倍数之和)。上例中为 10 × (1 + 1 + 2 + 4) = 80 USDT。策略页会为每个模板显示这个数字，创建任务时系统也会检查余额是否足够完整的一轮。</p>',
        '<h2>需要注意的地方</h2>',
        '<ul><li>价格跌破最后一档后，机器人不再买入，只能等待反弹；可以设置<strong>止损</strong>，在低于持仓均价一定比例时卖出止损。</li><li>倍数越大，均价拉得越快，但一轮占用的资金也越多。</li><li>把补仓设为“仅止盈”，机器人就不再补仓，只等待止盈卖出。</li></ul>',
      ].join(''),
    },
    'en-US': {
      title: 'How the DCA replenish strategy works',
      summary: 'First order, replenish levels, multiples, take profit and callbacks: one cycle from start to finish, and how to estimate the funds it needs.',
      body: [
        '<p>A replenish strategy (DCA, also called martingale-style averaging down) does not predict the market. It buys in steps as the price falls, lowering the average cost of the position, and sells everything once a modest rebound lifts the position above its take-profit line. Here is one cycle, step by step.</p>',
        '<h2>The four stages of a cycle</h2>',
        '<ol><li><strong>First order</strong>: when the task starts it buys the first-order amount, say 10 USDT of BTC, filled at 60,000.</li><li><strong>Replenish</strong>: each level has a drop and a multiple. When the price is that far below the first fill, the robot buys first-order amount × multiple.</li><li><strong>Take profit</strong>: when the position is worth the take-profit percent more than its average cost, the robot sells all of it.</li><li><strong>Next cycle</strong>: after the cooldown it buys a new first order, until the set number of cycles is done (9999 means until you stop it).</li></ol>',
        '<h2>An example</h2>',
        '<p>First order 10 USDT; levels: −2 % buys 1×, −4 % buys 2×, −8 % buys 4×; take profit 1.5 %.</p>',
        '<ul><li>10 USDT bought at 60,000;</li><li>at 58,800 (−2 %) it buys 10 USDT more;</li><li>at 57,600 (−4 %) it buys 20 USDT more;</li><li>40 USDT are now invested at an average cost of about 58,480;</li><li>at about 59,360 (1.5 % above the average) it sells everything for a profit of about 0.6 USDT, while the price is still about 1.1 % below the first fill.</li></ul>',
        '<p>That is the point of replenishing: the price does not have to come back to where it started; a small bounce from the low finishes the cycle.</p>',
        '<h2>Callbacks: better entries and exits</h2>',
        '<ul><li><strong>Take-profit callback</strong>: after reaching the take-profit line the robot follows the high and sells only when the price falls back that much from it, so a rally can run further.</li><li><strong>Replenish callback</strong>: after touching a level the robot follows the low and buys only when the price rebounds that much from it, so it does not buy too early in a sharp fall.</li></ul>',
        '<h2>How much one cycle needs</h2>',
        '<p>The most one cycle can use = first-order amount × (1 + the sum of all level multiples). In the example: 10 × (1 + 1 + 2 + 4) = 80 USDT. The Strategy tab shows this number for every template, and creating a task checks that your balance covers a full cycle.</p>',
        '<h2>Things to keep in mind</h2>',
        '<ul><li>Below the last level the robot buys no more and can only wait for a rebound; a <strong>stop loss</strong> sells the position when it is a set percent below its average cost.</li><li>Larger multiples pull the average down faster but tie up more funds per cycle.</li><li>Set replenishing to “take profit only” and the robot stops buying more and only waits to sell.</li></ul>',
      ].join(''),
    },
    'zh-TW': {
      title: '補倉（DCA）策略如何運作',
      summary: '首單、補倉檔位、倍數、停利與回檔：看懂一輪交易的完整過程，以及如何估算一輪所需的資金。',
      body: [
        '<p>補倉策略（DCA，也稱為馬丁格爾式攤平）不預測行情，而是在價格下跌時分批買進、拉低持倉均價，等價格小幅反彈、整體回到停利線時賣出獲利。以下用一個例子說明一輪交易的完整過程。</p>',
        '<h2>一輪交易的四個階段</h2>',
        '<ol><li><strong>首單</strong>：任務開始時依首單金額買進，例如 10 USDT 的 BTC，成交價 60,000。</li><li><strong>補倉</strong>：每個檔位都有一個跌幅和一個倍數。價格比首單成交價低於該跌幅時，買進「首單金額 × 倍數」。</li><li><strong>停利</strong>：持倉市值比持倉均價高出停利比例時，賣出全部持倉。</li><li><strong>下一輪</strong>：等待設定的間隔後重新買進首單，直到完成設定的循環次數（9999 表示持續運作，直到手動停止）。</li></ol>',
        '<h2>舉例</h2>',
        '<p>首單 10 USDT，檔位為：跌 2% 買 1 倍、跌 4% 買 2 倍、跌 8% 買 4 倍，停利 1.5%。</p>',
        '<ul><li>60,000 買進 10 USDT；</li><li>跌到 58,800（-2%）補 10 USDT；</li><li>跌到 57,600（-4%）補 20 USDT；</li><li>此時共投入 40 USDT，持倉均價約 58,480；</li><li>價格回到約 59,360（均價上方 1.5%）即可全部賣出，獲利約 0.6 USDT，此時價格仍比首單低約 1.1%。</li></ul>',
        '<p>這就是補倉的意義：不需要價格回到起點，只要從低點反彈一小段就能完成一輪。</p>',
        '<h2>回檔與回彈：更好的買賣點</h2>',
        '<ul><li><strong>停利回檔</strong>：達到停利線後不立即賣出，而是追蹤最高價，從最高點回落該比例時才賣出，讓漲勢多跑一段。</li><li><strong>補倉回彈</strong>：觸及補倉檔位後不立即買進，而是追蹤最低價，從最低點反彈該比例時才買進，避免在急跌中太早補倉。</li></ul>',
        '<h2>一輪需要多少資金</h2>',
        '<p>單輪最多佔用的資金 = 首單金額 × (1 + 所有檔位倍數總和)。上例為 10 × (1 + 1 + 2 + 4) = 80 USDT。策略頁會為每個範本顯示這個數字，建立任務時系統也會確認餘額足夠完整跑完一輪。</p>',
        '<h2>需要留意的地方</h2>',
        '<ul><li>價格跌破最後一檔後，機器人不再買進，只能等待反彈；可以設定<strong>停損</strong>，在低於持倉均價一定比例時賣出停損。</li><li>倍數越大，均價拉低得越快，但單輪佔用的資金也越多。</li><li>將補倉設為「僅停利」，機器人就不再補倉，只等待停利賣出。</li></ul>',
      ].join(''),
    },
  },
};

const risk: Guide = {
  id: '00000000-0000-4000-8000-00000000a003',
  minutesAgo: 2,
  texts: {
    'zh-CN': {
      title: '风险提示',
      summary: '加密货币价格波动剧烈，自动交易不保证盈利。使用前请了解主要风险和保护账户的做法。',
      body: [
        '<p>使用本产品前，请仔细阅读以下内容。继续使用即表示你理解并愿意自行承担这些风险。</p>',
        '<h2>市场风险</h2>',
        '<p>加密货币价格可能在短时间内大幅下跌，甚至长期不回升。补仓策略在单边下跌行情中会持续买入、占用越来越多的资金；价格跌破最后一档后，持仓可能长期处于浮亏。过往收益（包括模拟账户的收益）不代表未来表现，<strong>自动交易不保证盈利</strong>。</p>',
        '<h2>交易所与技术风险</h2>',
        '<ul><li>交易所可能维护、限流、暂停交易或出现故障，订单可能延迟、部分成交或以不同价格成交。</li><li>网络中断、服务器故障或第三方服务异常都可能影响机器人下单。</li><li>交易所本身可能出现经营或安全问题，这类风险不在我们的控制范围内。</li></ul>',
        '<h2>保护你的账户</h2>',
        '<ul><li>API Key 只开启现货交易权限，<strong>不要开启提现权限</strong>，并尽量设置 IP 白名单。</li><li>不要把登录密码、验证码或 API Secret 告诉任何人，工作人员不会向你索取。</li><li>发现异常时，立即在交易所删除 API Key，并修改登录密码。</li></ul>',
        '<h2>理性投资</h2>',
        '<ul><li>只投入你能够承受全部损失的资金，不要借钱交易。</li><li>先用模拟账户熟悉策略，再小额使用真实资金。</li><li>定期检查任务和持仓，根据行情调整或停止任务。</li><li>请遵守你所在地区关于加密资产的法律法规。</li></ul>',
      ].join(''),
    },
    'en-US': {
      title: 'Risk notice',
      summary: 'Crypto prices are highly volatile and automated trading does not guarantee profit. Know the main risks and how to protect your account before you start.',
      body: [
        '<p>Please read the following before using the product. By continuing to use it you confirm that you understand these risks and accept them as your own.</p>',
        '<h2>Market risk</h2>',
        '<p>Crypto prices can fall sharply within minutes and may not recover for a long time. In a steady decline a replenish strategy keeps buying and ties up more and more funds; below its last level the position can stay at a loss for a long time. Past results, paper-trading results included, do not predict future ones: <strong>automated trading does not guarantee profit</strong>.</p>',
        '<h2>Exchange and technical risk</h2>',
        '<ul><li>Exchanges may go into maintenance, limit requests, halt trading or fail; orders may be delayed, partly filled or filled at a different price.</li><li>Network outages, server failures or problems at third-party services can keep the robot from placing orders.</li><li>An exchange itself may run into business or security trouble, which is beyond our control.</li></ul>',
        '<h2>Protect your account</h2>',
        '<ul><li>Give API keys spot-trading permission only, <strong>never withdrawal permission</strong>, and set an IP whitelist where the exchange offers one.</li><li>Never share your password, verification codes or API secret with anyone; our staff will never ask for them.</li><li>If something looks wrong, delete the API key on the exchange at once and change your password.</li></ul>',
        '<h2>Invest sensibly</h2>',
        '<ul><li>Only commit money you can afford to lose entirely, and never trade with borrowed money.</li><li>Get to know a strategy on a paper account first, then start small with real funds.</li><li>Check your tasks and positions regularly, and adjust or stop tasks as the market changes.</li><li>Follow the laws on crypto assets where you live.</li></ul>',
      ].join(''),
    },
    'zh-TW': {
      title: '風險提示',
      summary: '加密貨幣價格波動劇烈，自動交易不保證獲利。使用前請先了解主要風險與保護帳戶的方法。',
      body: [
        '<p>使用本產品前，請詳細閱讀以下內容。繼續使用即表示你了解並願意自行承擔這些風險。</p>',
        '<h2>市場風險</h2>',
        '<p>加密貨幣價格可能在短時間內大幅下跌，甚至長期無法回升。補倉策略在單邊下跌行情中會持續買進、佔用越來越多資金；價格跌破最後一檔後，持倉可能長期處於未實現虧損。過往績效（包括模擬帳戶的績效）不代表未來表現，<strong>自動交易不保證獲利</strong>。</p>',
        '<h2>交易所與技術風險</h2>',
        '<ul><li>交易所可能進行維護、限制請求頻率、暫停交易或發生故障，訂單可能延遲、部分成交或以不同價格成交。</li><li>網路中斷、伺服器故障或第三方服務異常，都可能影響機器人下單。</li><li>交易所本身可能出現經營或資安問題，這類風險不在我們的控制範圍內。</li></ul>',
        '<h2>保護你的帳戶</h2>',
        '<ul><li>API Key 只開啟現貨交易權限，<strong>不要開啟提領權限</strong>，並盡量設定 IP 白名單。</li><li>不要將登入密碼、驗證碼或 API Secret 告訴任何人，客服人員不會向你索取。</li><li>發現異常時，請立即在交易所刪除 API Key，並變更登入密碼。</li></ul>',
        '<h2>理性投資</h2>',
        '<ul><li>只投入你能承受全部損失的資金，不要借錢交易。</li><li>先用模擬帳戶熟悉策略，再以小額投入真實資金。</li><li>定期檢查任務與持倉，依行情調整或停止任務。</li><li>請遵守你所在地區關於加密資產的法律規定。</li></ul>',
      ].join(''),
    },
  },
};

/** Newest first. */
export const GUIDES: readonly Guide[] = [welcome, dca, risk];
