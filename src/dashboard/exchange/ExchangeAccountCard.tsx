import ScienceIcon from '@mui/icons-material/ScienceOutlined';
import { Avatar, Box, Card, CardActions, CardContent, Chip, Stack, Typography } from '@mui/material';
import type { ReactNode } from 'react';
import { useLocaleState, useTranslate } from 'react-admin';
import { isTestnetExchange, PAPER_EXCHANGE, type ExchangeAccount } from '../../api/exchange';
import { formatBalances } from './exchangeText';
import { PaperPrices } from './PaperPrices';

/** One bound account: which exchange, its name (cut to one line, whole in its tooltip), the masked key (or the paper badge, virtual funds and prices) and when it was added. */
export const ExchangeAccountCard = ({ account, exchangeName, actions }: { account: ExchangeAccount; exchangeName: string; actions: ReactNode }) => {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const paper = account.exchange === PAPER_EXCHANGE;
  return (
    <Card variant="outlined" data-exchange-account={account.name} sx={{ display: 'flex', flexDirection: 'column', minWidth: 0 }}>
      <CardContent sx={{ pb: 1, flexGrow: 1 }}>
        <Stack direction="row" spacing={1.5} sx={{ alignItems: 'center', minWidth: 0 }}>
          <Avatar sx={{ bgcolor: paper ? 'success.main' : 'secondary.main', fontWeight: 600 }} aria-hidden>
            {paper ? <ScienceIcon /> : exchangeName.charAt(0).toUpperCase()}
          </Avatar>
          <Box sx={{ minWidth: 0, flexGrow: 1 }}>
            <Typography variant="h6" component="h2" noWrap title={account.name} sx={{ fontWeight: 600, lineHeight: 1.3 }}>
              {account.name}
            </Typography>
            <Typography variant="body2" color="text.secondary" noWrap>
              {exchangeName}
            </Typography>
          </Box>
          {paper && <Chip size="small" color="success" label={translate('exchange.paperBadge')} />}
          {isTestnetExchange(account.exchange) && <Chip size="small" color="warning" label={translate('exchange.testnetBadge')} data-testnet />}
        </Stack>
        <Box sx={{ mt: 1.5 }}>
          {paper ? (
            <>
              <Typography variant="body2">{translate('exchange.paperBalance', { balance: formatBalances(account.paperBalances ?? {}, locale) })}</Typography>
              {account.prices && <PaperPrices prices={account.prices} />}
            </>
          ) : (
            <Typography variant="body2" sx={{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', overflowWrap: 'anywhere' }}>
              {translate('exchange.keyHint', { hint: account.apiKeyHint ?? '****' })}
            </Typography>
          )}
          <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
            {translate('exchange.createdAt', { date: new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(account.createdAt)) })}
          </Typography>
        </Box>
      </CardContent>
      <CardActions sx={{ justifyContent: 'flex-end' }}>{actions}</CardActions>
    </Card>
  );
};
